/**
 * Archives into volumes (spec/1 §4.1 PUT archive): a read-only volume refuses with 403, as a
 * read-only rootfs does; a writable volume takes the files, where every container mounting it sees
 * them.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import type { ApiResponse } from '../../harness/client/api-response.ts';
import { buildTar } from '../tar-files.ts';
import { containerWithBinds, ownVolume, runToEnd } from './volume-steps.ts';

const BINDS = '| Binds | array of string |';
const PUT_ROW = '| PUT /containers/{id_or_name}/archive |';

const HELLO = [{ kind: 'file' as const, name: 'hello.txt', data: 'hello\n' }];

function putTar({ engine }: CheckContext, id: string, path: string, tar: Buffer): Promise<ApiResponse> {
  return engine.put(`/containers/${id}/archive`, { query: { path }, body: tar, headers: { 'content-type': 'application/x-tar' } });
}

check('volumes.archive.read-only', {
  title: 'PUT /containers/{id}/archive into a volume mounted read-only answers 403',
  spec: '1 §2.3, §4.1',
  quote: [PUT_ROW, '403 (volume or container rootfs is read-only)', BINDS, 'volume_name:container_path:ro'],
  since: '1.20',
  tags: ['error'],
  covers: ['1:PUT /containers/{id_or_name}/archive:status:403', '1:POST /containers/create:body:HostConfig.Binds'],
}, async (context) => {
  const name = await ownVolume(context);
  const id = await containerWithBinds(context, [`${name}:/data:ro`]);
  const res = await putTar(context, id, '/data', await buildTar(HELLO));
  context.expect(res.status, 'PUT /containers/{id}/archive?path=/data status').toBe(403);
});

check('volumes.archive.shared', {
  title: 'a file PUT into a volume through one container is read by another that mounts the volume',
  spec: '1 §2.3, §4.1',
  quote: [PUT_ROW, 'path (required, an existing directory)', '| tar stream | 200 empty |', BINDS, 'volume_name:container_path'],
  since: '1.20',
  tags: ['state'],
  covers: ['1:POST /containers/create:body:HostConfig.Binds'],
}, async (context) => {
  const name = await ownVolume(context);
  const holder = await containerWithBinds(context, [`${name}:/data`]);
  const res = await putTar(context, holder, '/data', await buildTar(HELLO));
  context.expect(res.status, 'PUT /containers/{id}/archive?path=/data status').toBe(200);
  const reader = await containerWithBinds(context, [`${name}:/other`], { Cmd: ['cat', '/other/hello.txt'] });
  const { exitCode, stdout } = await runToEnd(context, reader);
  context.expect({ exitCode, stdout }, 'what the reader printed').toEqual({ exitCode: 0, stdout: 'hello\n' });
});
