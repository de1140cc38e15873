/**
 * DELETE /containers/{id} (spec/1 §4.1): with v=1 the container goes with its anonymous volumes (the
 * volume itself is not looked up here, volumes are spec/2; on a live target the run's before-and-after
 * comparison reports a volume that v=1 left behind); a bad parameter is refused and the container stays.
 */
import { check } from '../../harness/check.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';

check('containers.remove.volumes', {
  title: 'DELETE with v=1 of a container that has an anonymous volume answers 204 and the container is gone',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['state'],
  covers: ['1:DELETE /containers/{id_or_name}:query:v', '1:DELETE /containers/{id_or_name}:status:204'],
}, async ({ engine, expect, make, session }) => {
  const id = await make.container({ Image: session.fixtureImage, Cmd: ['true'], Volumes: { '/data': {} } });
  const res = await engine.delete(`/containers/${id}`, { query: { v: '1' } });
  expect(res.status, 'status').toBe(204);
  expect((await engine.get(`/containers/${id}/json`)).status, 'GET /containers/{id}/json status after the removal').toBe(404);
});

check('containers.remove.bad-parameter', {
  title: 'DELETE with a query that does not decode (v=%zz, a malformed escape) answers 400 with the error body of the version, and the container stays',
  spec: '1 §7.2',
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
