/**
 * DELETE /containers/{id} with v=1 (spec/1 §4.1): the container goes with its anonymous volumes. The
 * volume itself is not looked up here (volumes are spec/2); on a live target the run's before-and-after
 * comparison reports a volume that v=1 left behind.
 */
import { check } from '../../harness/check.ts';

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
