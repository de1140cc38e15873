/**
 * Creating, inspecting and removing volumes (spec/2 §4.3): a name as given or generated, the local
 * driver by default, labels kept, an existing name answered with its volume; 404 for a volume that
 * is not there; 204 on removal, and 409 while a running container uses the volume (§3); while one
 * that was only created names it, dockerd's.
 */
import { check } from '../../harness/check.ts';
import { startedContainer } from '../container-steps.ts';
import { createVolume, containerWithBinds, inspectVolume, ownVolume, uniqueVolumeName, volumeStatus, type VolumeView } from './volume-steps.ts';

const CREATE_ROW = '| POST /volumes/create |';
const CREATE_BODY = '{Name (string; generated if omitted), Driver (default local), DriverOpts (map string to string, passed to the driver), Labels (map)} | 201 volume | 201, 500 |';
const GET_ROW = '| GET /volumes/{name} | | none | 200 volume | 200, 404, 500 |';
const DELETE_ROW = '| DELETE /volumes/{name} | | none | 204 | 204, 404 (no such volume or driver), 409 (in use), 500 |';

check('volumes.create.named', {
  title: 'a volume created with a Name has that name, the local driver by default, and a Mountpoint',
  spec: '2 §2.3, §4.3',
  quote: [CREATE_ROW, CREATE_BODY, 'Fields: Name (string), Driver (string), Mountpoint (string, host path)'],
  since: '1.18',
  tags: ['state'],
  covers: ['2:POST /volumes/create', '2:POST /volumes/create:body:Name', '2:POST /volumes/create:status:201'],
}, async (context) => {
  const name = uniqueVolumeName(context);
  const res = await createVolume(context, { Name: name });
  context.expect(res.status, 'POST /volumes/create status').toBe(201);
  const { Name, Driver, Mountpoint } = res.json<VolumeView>();
  context.expect({ Name, Driver, mountpoint: typeof Mountpoint === 'string' && Mountpoint !== '' }, 'the created volume').toEqual({ Name: name, Driver: 'local', mountpoint: true });
});

check('volumes.create.driver', {
  title: 'a volume created with Driver "local" named shows that driver',
  spec: '2 §4.3',
  quote: [CREATE_ROW, CREATE_BODY, GET_ROW],
  since: '1.18',
  tags: ['state'],
  covers: ['2:POST /volumes/create:body:Driver'],
}, async (context) => {
  const name = uniqueVolumeName(context);
  const res = await createVolume(context, { Name: name, Driver: 'local' });
  context.expect(res.status, 'POST /volumes/create status').toBe(201);
  context.expect((await inspectVolume(context, name)).Driver, `GET /volumes/${name} Driver`).toBe('local');
});

check('volumes.create.driver-opts', {
  title: 'from 1.25 a volume created with DriverOpts for the local driver (a tmpfs) shows them as its Options, what was passed to the driver',
  spec: '2 §4.3',
  // Options is no field of the spec's volume (§2.3), nor are the local driver's tmpfs options.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.25',
  tags: ['state'],
  covers: ['2:POST /volumes/create:body:Driver', '2:POST /volumes/create:body:DriverOpts'],
}, async (context) => {
  const name = uniqueVolumeName(context);
  const driverOpts = { type: 'tmpfs', device: 'tmpfs', o: 'size=1m' };
  const res = await createVolume(context, { Name: name, Driver: 'local', DriverOpts: driverOpts });
  context.expect(res.status, `POST /volumes/create status: ${res.describe()}`).toBe(201);
  const { Driver, Options } = await inspectVolume(context, name);
  context.expect({ Driver, Options }, `GET /volumes/${name}`).toEqual({ Driver: 'local', Options: driverOpts });
});

check('volumes.create.generated-name', {
  title: 'a volume created without a Name gets a generated one, by which it can be inspected',
  spec: '2 §4.3',
  quote: [CREATE_ROW, CREATE_BODY, GET_ROW],
  since: '1.18',
  tags: ['state'],
  covers: ['2:POST /volumes/create', '2:POST /volumes/create:status:201'],
}, async (context) => {
  const res = await createVolume(context);
  context.expect(res.status, 'POST /volumes/create status').toBe(201);
  const { Name } = res.json<VolumeView>();
  context.expect(typeof Name === 'string' && Name.length > 0, `a generated name: ${JSON.stringify(Name)}`).toBe(true);
  context.expect((await inspectVolume(context, Name)).Name, `GET /volumes/${Name} Name`).toBe(Name);
});

check('volumes.create.labels', {
  title: 'from 1.25 a volume keeps the Labels it was created with',
  spec: '2 §2.3, §4.3',
  quote: [CREATE_BODY, 'Labels (object string to string)', 'Fields Labels and Scope appear from 1.25 (earlier: Name, Driver, Mountpoint).', GET_ROW],
  since: '1.25',
  tags: ['state'],
  covers: ['2:POST /volumes/create:body:Labels', '2:version-rule:1.25:volume-labels-scope'],
}, async (context) => {
  const name = await ownVolume(context, { 'shipshape.colour': 'red' });
  const { Labels } = await inspectVolume(context, name);
  context.expect(Labels, `Labels of volume ${name}`).toEqual({ ...context.make.labels, 'shipshape.colour': 'red' });
});

check('volumes.create.existing-name', {
  title: 'creating a volume with the name of one that exists answers 201 with that volume, unchanged',
  spec: '2 §4.3',
  // The spec says nothing of a name that exists (create lists 201 and 500): taking it is dockerd's.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.25',
  tags: ['state'],
  covers: ['2:POST /volumes/create:body:Name', '2:POST /volumes/create:status:201'],
}, async (context) => {
  const name = await ownVolume(context, { 'shipshape.colour': 'red' });
  const again = await createVolume(context, { Name: name, Labels: { 'shipshape.colour': 'blue' } });
  context.expect(again.status, 'second POST /volumes/create status').toBe(201);
  const { Name, Labels } = again.json<VolumeView>();
  context.expect({ Name, colour: Labels?.['shipshape.colour'] }, 'the volume the second create answered').toEqual({ Name: name, colour: 'red' });
  context.expect((await inspectVolume(context, name)).Labels?.['shipshape.colour'], `colour label of ${name} afterwards`).toBe('red');
});

check('volumes.inspect.not-found', {
  title: 'GET /volumes/{name} of a volume that does not exist answers 404',
  spec: '2 §4.3',
  quote: [GET_ROW],
  since: '1.18',
  tags: ['error'],
  covers: ['2:GET /volumes/{name}:status:404'],
}, async (context) => {
  context.expect(await volumeStatus(context, uniqueVolumeName(context, 'missing')), 'GET /volumes/{missing} status').toBe(404);
});

check('volumes.remove.removed', {
  title: 'DELETE /volumes/{name} answers 204 and the volume is gone',
  spec: '2 §4.3',
  quote: [DELETE_ROW, GET_ROW],
  since: '1.18',
  tags: ['state'],
  covers: ['2:DELETE /volumes/{name}', '2:DELETE /volumes/{name}:status:204'],
}, async (context) => {
  const name = await ownVolume(context);
  const res = await context.engine.delete(`/volumes/${name}`);
  context.expect(res.status, 'DELETE /volumes/{name} status').toBe(204);
  context.expect(await volumeStatus(context, name), `GET /volumes/${name} status after the removal`).toBe(404);
});

check('volumes.remove.not-found', {
  title: 'DELETE /volumes/{name} of a volume that does not exist answers 404',
  spec: '2 §4.3',
  quote: [DELETE_ROW],
  since: '1.18',
  tags: ['error'],
  covers: ['2:DELETE /volumes/{name}:status:404'],
}, async (context) => {
  const res = await context.engine.delete(`/volumes/${uniqueVolumeName(context, 'missing')}`);
  context.expect(res.status, 'DELETE /volumes/{missing} status').toBe(404);
});

check('volumes.remove.in-use', {
  title: 'DELETE /volumes/{name} answers 409 while a running container uses the volume, and the volume stays',
  spec: '2 §3, §4.3, 1 §2.3',
  quote: ['a volume removal returns 409 while the volume is in use', DELETE_ROW, GET_ROW, '| Binds | array of string |', 'volume_name:container_path'],
  since: '1.18',
  tags: ['state', 'error'],
  covers: ['2:DELETE /volumes/{name}', '2:DELETE /volumes/{name}:status:409'],
}, async (context) => {
  const name = await ownVolume(context);
  await startedContainer(context, { Cmd: ['sleep', '300'], HostConfig: { Binds: [`${name}:/data`] } });
  const res = await context.engine.delete(`/volumes/${name}`);
  context.expect(res.status, 'DELETE /volumes/{name} status while a running container uses it').toBe(409);
  context.expect(await volumeStatus(context, name), `GET /volumes/${name} status afterwards`).toBe(200);
});

check('volumes.remove.in-use-created', {
  title: 'DELETE /volumes/{name} answers 409 while a container that was created and never started names the volume, and the volume stays',
  spec: '2 §3',
  // "in use" is not defined: that a container which never ran holds its volumes is dockerd's.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state', 'error'],
}, async (context) => {
  const name = await ownVolume(context);
  await containerWithBinds(context, [`${name}:/data`]);
  const res = await context.engine.delete(`/volumes/${name}`);
  context.expect(res.status, 'DELETE /volumes/{name} status while a created container uses it').toBe(409);
  context.expect(await volumeStatus(context, name), `GET /volumes/${name} status afterwards`).toBe(200);
});
