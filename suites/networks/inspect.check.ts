/**
 * GET /networks/{network-id} (spec/2 §4.4): a network is found by its id, its name or a prefix of its
 * id; an unknown one is 404; every daemon has the predefined bridge, host and none.
 */
import { check } from '../../harness/check.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { inspectNetwork, ownNetwork } from './network-steps.ts';

check('networks.inspect.by-reference', {
  title: 'GET /networks/{id} finds a network by its id, its name and a 12-digit prefix of its id',
  spec: '2 §4.4',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.21',
  tags: ['state'],
  covers: ['2:GET /networks/{network-id}', '2:GET /networks/{network-id}:status:200'],
}, async (context) => {
  const name = context.make.uniqueName('n');
  const id = await ownNetwork(context, { Name: name });
  const found = [(await inspectNetwork(context, id)).Id, (await inspectNetwork(context, name)).Id, (await inspectNetwork(context, id.slice(0, 12))).Id];
  context.expect(found, 'the ids found by id, by name and by prefix').toEqual([id, id, id]);
});

check('networks.inspect.not-found', {
  title: 'GET /networks/{id} of an unknown network answers 404 with the error body of the version',
  spec: '2 §4.4, 1 §7.1, §7.2',
  quote: ['| GET /networks/{network-id} | | none | 200 network | 200, 404 |', '404 no such container, image, exec instance, volume, network, service or task', 'From 1.24 the response body is JSON: an object with a single string field `message`.', 'Before 1.24 the body is plain text.'],
  since: '1.21',
  tags: ['error'],
  covers: ['2:GET /networks/{network-id}:status:404'],
}, async (context) => {
  const res = await context.engine.get(`/networks/${context.make.uniqueName('missing')}`);
  context.expect(res.status, 'GET /networks/{id} status').toBe(404);
  expectErrorBodyOfVersion(context, res);
});

check('networks.inspect.predefined', {
  title: 'the predefined networks bridge, host and none exist, with the drivers bridge, host and null',
  spec: '2 §2.4',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.21',
  tags: ['state'],
  covers: ['2:GET /networks/{network-id}'],
}, async (context) => {
  const drivers = { bridge: (await inspectNetwork(context, 'bridge')).Driver, host: (await inspectNetwork(context, 'host')).Driver, none: (await inspectNetwork(context, 'none')).Driver };
  context.expect(drivers, 'the drivers of the predefined networks').toEqual({ bridge: 'bridge', host: 'host', none: 'null' });
});
