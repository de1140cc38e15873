/**
 * Containers using volumes (spec/1 §2.3 Binds and Volumes, spec/2 §2.3): a bind `name:/path` creates
 * the named volume when it is missing and mounts it (dockerd's); containers mounting one volume share
 * its files; `:ro` mounts it read-only; Config.Volumes makes an anonymous volume (dockerd's: the spec
 * says only "mount-point path"); DELETE /containers/{id}?v=1 removes the anonymous volumes (and,
 * dockerd's, leaves the named ones); inspect shows each in Mounts, with its Name and Driver from 1.23
 * (and, dockerd's, the volume's Mountpoint as its Source).
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { atLeast } from '../../protocol/versions.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { volumeSchema } from '../../harness/schemas/volume-schemas.ts';
import { createdContainer } from '../container-steps.ts';
import { containerWithBinds, inspectVolume, mountsOf, ownVolume, runToEnd, uniqueVolumeName, volumeMountedAt, volumeStatus } from './volume-steps.ts';

const BINDS = '| Binds | array of string |';
const CONFIG_VOLUMES = '| Volumes | object | mount-point path inside the container mapped to an empty object |';

check('volumes.binds.creates-named', {
  title: 'a container whose Binds name a volume that does not exist creates it, of the local driver',
  spec: '1 §2.3',
  // §2.3 gives the bind form volume_name:container_path, not what a name that is no volume yet does.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
  covers: ['1:POST /containers/create:body:HostConfig.Binds'],
}, async (context) => {
  const name = uniqueVolumeName(context);
  context.make.volume(name);
  await containerWithBinds(context, [`${name}:/data`]);
  const volume = await inspectVolume(context, name);
  assertMatchesSchema(volume, volumeSchema(context.version), `the volume the bind created at ${context.version}`);
  context.expect({ Name: volume.Name, Driver: volume.Driver }, `the volume ${name}`).toEqual({ Name: name, Driver: 'local' });
});

check('volumes.binds.shared-files', {
  title: 'a file one container writes into a named volume is read by another container that mounts it elsewhere',
  spec: '1 §2.3',
  quote: [BINDS, 'volume_name:container_path'],
  since: '1.18',
  tags: ['state'],
  covers: ['1:POST /containers/create:body:HostConfig.Binds'],
}, async (context) => {
  const name = await ownVolume(context);
  const writer = await containerWithBinds(context, [`${name}:/data`], { Cmd: ['sh', '-c', 'echo shared > /data/note'] });
  context.expect((await runToEnd(context, writer)).exitCode, 'exit code of the writer').toBe(0);
  const reader = await containerWithBinds(context, [`${name}:/other`], { Cmd: ['cat', '/other/note'] });
  const { exitCode, stdout, stderr } = await runToEnd(context, reader);
  context.expect({ exitCode, stdout, stderr }, 'what the reader printed').toEqual({ exitCode: 0, stdout: 'shared\n', stderr: '' });
});

check('volumes.binds.read-only', {
  title: 'a bind with mode ro mounts the volume read-only: writing into it fails',
  spec: '1 §2.3',
  quote: [BINDS, 'volume_name:container_path:ro'],
  since: '1.18',
  tags: ['state'],
  covers: ['1:POST /containers/create:body:HostConfig.Binds'],
}, async (context) => {
  const name = await ownVolume(context);
  const id = await containerWithBinds(context, [`${name}:/data:ro`], { Cmd: ['touch', '/data/file'] });
  const { exitCode, stderr } = await runToEnd(context, id);
  context.expect(exitCode, `exit code of touch in the read-only volume (stderr ${JSON.stringify(stderr)})`).not.toBe(0);
});

check('volumes.config.anonymous', {
  title: 'a path of Config.Volumes gets an anonymous volume of its own: a Mounts item there, of a new volume',
  spec: '1 §2.3',
  // §2.3 says only "mount-point path inside the container": that each gets a new volume GET /volumes lists, whose Mountpoint is the mount's Source, is dockerd's.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
  covers: ['1:POST /containers/create:body:Volumes'],
}, async (context) => {
  const first = await createdContainer(context, { Volumes: { '/data': {} } });
  const second = await createdContainer(context, { Volumes: { '/data': {} } });
  const names = [await volumeMountedAt(context, first, '/data'), await volumeMountedAt(context, second, '/data')];
  context.expect(names[0] !== names[1], `each container has a volume of its own: ${JSON.stringify(names)}`).toBe(true);
});

check('volumes.mounts.named-bind', {
  title: "inspect Mounts shows a named volume's bind at its Destination: RW, and from 1.23 its Name and Driver",
  spec: '1 §2.1, §2.2, §2.3, 2 §4.3',
  quote: ['Mount object: Name, Source, Destination, Driver, Mode (string such as read-only flags), RW (boolean), Propagation (string). Name, Driver and Propagation appear from 1.23 on.', 'Mounts (array of mount)', '| Binds | array of string |', 'volume_name:container_path', 'Driver (default local)'],
  since: '1.18',
  tags: ['schema', 'state'],
  covers: ['1:GET /containers/{id_or_name}/json', '1:version-rule:1.23:mount-name-driver-propagation'],
}, async (context) => {
  const name = await ownVolume(context);
  const id = await containerWithBinds(context, [`${name}:/data`]);
  const mount = (await mountsOf(context, id)).find((item) => item.Destination === '/data');
  context.expect(mount, 'the Mounts item of /data').toBeDefined();
  const { RW, Name, Driver } = mount ?? {};
  const newer = atLeast(context.version, '1.23');
  context.expect({ RW, ...(newer && { Name, Driver }) }, 'the Mounts item of the named volume').toEqual({ RW: true, ...(newer && { Name: name, Driver: 'local' }) });
});

check('volumes.mounts.named-bind-source', {
  title: "inspect Mounts shows a named volume's bind with the volume's Mountpoint as its Source",
  spec: '1 §2.1, 2 §2.3',
  // The spec does not describe a mount's Source: that it is the volume's Mountpoint is dockerd's.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const name = await ownVolume(context);
  const { Mountpoint } = await inspectVolume(context, name);
  const id = await containerWithBinds(context, [`${name}:/data`]);
  const mount = (await mountsOf(context, id)).find((item) => item.Destination === '/data');
  context.expect(mount?.Source, 'the Source of the Mounts item of /data').toBe(Mountpoint);
});

/**
 * The volume a container's Config.Volumes path got, for a check that takes it as given: from 1.23 the
 * Name of its Mounts item (spec/1 §2.1), before by the mount's Source among the volumes' Mountpoints
 * (dockerd's relation, which the spec does not state). Not finding one is a setup error: the spec does
 * not say such a path is a volume the API lists.
 */
async function anonymousVolumeAt(context: CheckContext, id: string, destination: string): Promise<string> {
  const mount = (await mountsOf(context, id)).find((item) => item.Destination === destination);
  if (mount?.Name) return mount.Name;
  const res = await context.engine.get('/volumes');
  const volume = res.status === 200 ? (res.json<{ Volumes: { Name: string; Mountpoint: string }[] | null }>().Volumes ?? []).find((item) => mount !== undefined && item.Mountpoint === mount.Source) : undefined;
  if (!volume) throw new Error(`setup: no volume found behind the mount at ${destination} (${JSON.stringify(mount)}): ${res.describe()}`);
  return volume.Name;
}

/** Removes with v=1 a container that has an anonymous volume at /anonymous and `named` bound at /named; GET /volumes/{name} status of each afterwards. */
async function afterRemovalWithVolumes(context: CheckContext): Promise<{ anonymous: number; named: number }> {
  const named = await ownVolume(context);
  const id = await containerWithBinds(context, [`${named}:/named`], { Volumes: { '/anonymous': {} } });
  const anonymous = await anonymousVolumeAt(context, id, '/anonymous');
  const res = await context.engine.delete(`/containers/${id}`, { query: { v: 1 } });
  context.expect(res.status, 'DELETE /containers/{id}?v=1 status').toBe(204);
  return { anonymous: await volumeStatus(context, anonymous), named: await volumeStatus(context, named) };
}

check('volumes.container-remove.anonymous', {
  title: 'DELETE /containers/{id}?v=1 removes the anonymous volume of the container ("remove associated volumes")',
  spec: '1 §2.3, §4.1, 2 §4.3',
  quote: ['| DELETE /containers/{id_or_name} | v (remove associated volumes, default false)', '| none | 204 | 204, 400, 404, 409, 500 |', CONFIG_VOLUMES, '| GET /volumes/{name} | | none | 200 volume | 200, 404, 500 |'],
  since: '1.18',
  tags: ['state'],
  covers: ['1:DELETE /containers/{id_or_name}:query:v'],
}, async (context) => {
  const { anonymous } = await afterRemovalWithVolumes(context);
  context.expect(anonymous, 'GET /volumes/{anonymous} status afterwards').toBe(404);
});

check('volumes.container-remove.named-kept', {
  title: 'DELETE /containers/{id}?v=1 leaves the named volumes the container bound, as dockerd does',
  spec: '1 §4.1',
  // "Remove associated volumes" does not tell named from anonymous ones: keeping the named is dockerd's.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const seen = await afterRemovalWithVolumes(context);
  context.expect(seen, 'GET /volumes/{name} status of each afterwards').toEqual({ anonymous: 404, named: 200 });
});

check('volumes.binds.host-path-shared', {
  title: 'what a container writes under a bound host path, a later container binding the same path reads',
  spec: '1 §2.3',
  // §2.3 lists host_path:container_path binds; that they share the host's directory is dockerd's.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  // /tmp is on every host; the file is the run's, and the reader removes it.
  const file = context.make.uniqueName('bind');
  const writer = await containerWithBinds(context, ['/tmp:/host'], { Cmd: ['sh', '-c', `echo shared > /host/${file}`] });
  context.expect((await runToEnd(context, writer)).exitCode, 'the writer\'s exit code').toBe(0);
  const reader = await containerWithBinds(context, ['/tmp:/elsewhere'], { Cmd: ['sh', '-c', `cat /elsewhere/${file} && rm /elsewhere/${file}`] });
  const { exitCode, stdout } = await runToEnd(context, reader);
  context.expect({ exitCode, stdout }, 'what the reader printed').toEqual({ exitCode: 0, stdout: 'shared\n' });
});
