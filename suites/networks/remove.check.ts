/**
 * DELETE /networks/{id} (spec/2 §4.4): 204, 200 at 1.21, and the network is gone; a network a
 * running container is on stays, and so do the predefined ones; an unknown one is 404.
 */
import { check } from '../../harness/check.ts';
import { before } from '../../protocol/versions.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { networkStatus, networkWithContainer, ownNetwork } from './network-steps.ts';

check('networks.remove.status', {
  title: 'DELETE /networks/{id} answers 204 (200 at 1.21) and the network is gone',
  spec: '2 §4.4, 1 §7.2',
  quote: ['| DELETE /networks/{id} | | none | 204 (200 at 1.21) | 204, 404, 500 |', '| GET /networks/{network-id} | | none | 200 network | 200, 404 |', '404 no such container, image, exec instance, volume, network, service or task'],
  since: '1.21',
  tags: ['state', 'version'],
  covers: ['2:DELETE /networks/{id}', '2:DELETE /networks/{id}:status:204', '2:version-rule:1.22:network-delete-204'],
}, async (context) => {
  const id = await ownNetwork(context);
  const res = await context.engine.delete(`/networks/${id}`);
  context.expect(res.status, 'DELETE /networks/{id} status').toBe(before(context.version, '1.22') ? 200 : 204);
  context.expect(await networkStatus(context, id), 'GET /networks/{id} status after the removal').toBe(404);
});

check('networks.remove.in-use', {
  title: 'removing a network a running container is on is refused, and the network stays',
  spec: '2 §4.4',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.21',
  tags: ['error', 'state'],
  covers: ['2:DELETE /networks/{id}'],
}, async (context) => {
  const { id } = await networkWithContainer(context);
  const res = await context.engine.delete(`/networks/${id}`);
  context.expect(res.status, 'DELETE /networks/{id} status with a container on it').toBeGreaterThanOrEqual(400);
  expectErrorBodyOfVersion(context, res);
  context.expect(await networkStatus(context, id), 'GET /networks/{id} status').toBe(200);
});

check('networks.remove.predefined', {
  title: 'removing the predefined bridge network is refused, and it stays',
  spec: '2 §4.4',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.21',
  tags: ['error'],
  covers: ['2:DELETE /networks/{id}'],
}, async (context) => {
  const res = await context.engine.delete('/networks/bridge');
  context.expect(res.status, 'DELETE /networks/bridge status').toBeGreaterThanOrEqual(400);
  expectErrorBodyOfVersion(context, res);
  context.expect(await networkStatus(context, 'bridge'), 'GET /networks/bridge status').toBe(200);
});

check('networks.remove.not-found', {
  title: 'removing a network that does not exist answers 404',
  spec: '2 §4.4, 1 §7.1, §7.2',
  quote: ['| DELETE /networks/{id} | | none | 204 (200 at 1.21) | 204, 404, 500 |', '404 no such container, image, exec instance, volume, network, service or task', 'From 1.24 the response body is JSON: an object with a single string field `message`.', 'Before 1.24 the body is plain text.'],
  since: '1.21',
  tags: ['error'],
  covers: ['2:DELETE /networks/{id}:status:404'],
}, async (context) => {
  const res = await context.engine.delete(`/networks/${context.make.uniqueName('missing')}`);
  context.expect(res.status, 'DELETE /networks/{id} status').toBe(404);
  expectErrorBodyOfVersion(context, res);
});
