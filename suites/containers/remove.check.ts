/**
 * DELETE /containers/{id} (spec/1 §4.1): with v=1 the container goes with its anonymous volumes, which
 * the volume list (spec/2 §4.3) no longer shows; a bad parameter is refused and the container stays.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { exitedContainer, inspectContainer, mountsIn, type InspectedMounts } from '../container-steps.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';

interface ListedVolume {
  Name: string;
  Mountpoint?: string;
}

/** GET /volumes (spec/2 §4.3), which must answer 200: the volumes it lists. */
async function listedVolumes({ engine, expect }: CheckContext): Promise<ListedVolume[]> {
  const res = await engine.get('/volumes');
  expect(res.status, 'GET /volumes status').toBe(200);
  return res.json<{ Volumes: ListedVolume[] | null }>().Volumes ?? [];
}

check('containers.remove.volumes', {
  title: 'DELETE with v=1 of a container that has an anonymous volume answers 204; the container and its volume are gone',
  spec: '1 §4.1, §2.1, §2.2, §2.3, §7.2, 2 §4.3, §2.3',
  quote: ['| DELETE /containers/{id_or_name} | v (remove associated volumes, default false), force (kill then remove, default false) | none | 204 | 204, 400, 404, 409, 500 |', '| Volumes | object | mount-point path inside the container mapped to an empty object |', '| GET /containers/{id_or_name}/json | size (boolean, default false) | none | 200 inspect object | 200, 404, 500 |', '404 no such container', '| POST /containers/{id_or_name}/start |', '204 no body | 204, 304, 404, 500 |', '| GET /volumes | filters: name=<volume-name> (all or part), dangling=<boolean> (true or 1 returns volumes not in use), driver=<driver-name> (all or part) | none | 200 {Volumes (array of volume), Warnings (array)} | 200, 500 |', 'Fields: Name (string), Driver (string), Mountpoint (string, host path)', 'Mount object: Name, Source, Destination, Driver, Mode (string such as read-only flags), RW (boolean), Propagation (string). Name, Driver and Propagation appear from 1.23 on.', 'Mounts (array of mount), Volumes and VolumesRW (maps, shown only at 1.18)'],
  since: '1.18',
  tags: ['state'],
  covers: ['1:DELETE /containers/{id_or_name}:query:v', '1:DELETE /containers/{id_or_name}:status:204'],
}, async (context) => {
  const { engine, expect } = context;
  // Run once, so that its volume exists whenever the target makes it.
  const id = await exitedContainer(context, { Cmd: ['true'], Volumes: { '/data': {} } });
  const mount = mountsIn(await inspectContainer<InspectedMounts>(context, id)).find((candidate) => candidate.Destination === '/data');
  expect(mount, 'the mount of /data in inspect').toBeDefined();
  // The volume of that mount: by Name (1.23+ mounts carry it), else by its host path.
  const isTheVolume = (volume: ListedVolume) => (mount?.Name ? volume.Name === mount.Name : volume.Mountpoint === mount?.Source);
  const listedBefore = (await listedVolumes(context)).filter(isTheVolume);
  expect(listedBefore.length, `GET /volumes lists the volume of ${JSON.stringify(mount)}`).toBe(1);
  const res = await engine.delete(`/containers/${id}`, { query: { v: '1' } });
  expect(res.status, 'status').toBe(204);
  expect((await engine.get(`/containers/${id}/json`)).status, 'GET /containers/{id}/json status after the removal').toBe(404);
  expect((await listedVolumes(context)).filter(isTheVolume), 'the volume in GET /volumes after the removal with v=1').toEqual([]);
});

check('containers.remove.bad-parameter', {
  title: 'DELETE with a query that does not decode (v=%zz, a malformed escape) answers 400 with the error body of the version, and the container stays',
  spec: '1 §7.2, §7.1, §4.1',
  quote: ['400 bad parameter', 'Errors use standard HTTP status codes. From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.', '| DELETE /containers/{id_or_name} | v (remove associated volumes, default false), force (kill then remove, default false) | none | 204 | 204, 400, 404, 409, 500 |', '| GET /containers/{id_or_name}/json | size (boolean, default false) | none | 200 inspect object | 200, 404, 500 |'],
  since: '1.18',
  tags: ['error'],
  covers: ['1:DELETE /containers/{id_or_name}:status:400'],
}, async (context) => {
  const { engine, expect, make, session } = context;
  const id = await make.container({ Image: session.fixtureImage, Cmd: ['true'] });
  // The query is written by hand: a client would escape the `%`.
  const res = await engine.delete(`/containers/${id}?v=%zz`);
  expect(res.status, `DELETE /containers/{id}?v=%zz status: ${res.text().trim()}`).toBe(400);
  expectErrorBodyOfVersion(context, res);
  expect((await engine.get(`/containers/${id}/json`)).status, 'GET /containers/{id}/json status after the refused removal').toBe(200);
});
