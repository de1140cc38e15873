/**
 * The shapes of the network resources per API version (spec/2 §2.4, §4.4): the list items, inspect
 * with a container on the network, and the answer to create. Network endpoints exist from 1.21.
 */
import { check } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { NETWORK_CREATED_SCHEMA, networkListSchema, networkSchema } from '../../harness/schemas/network-schemas.ts';
import { inspectContainer } from '../container-steps.ts';
import { createNetworkPast500, networkWithContainer, readNetworks, type NetworkView } from './network-steps.ts';

check('networks.create.schema', {
  title: 'POST /networks/create answers 201 {Id, Warning}',
  spec: '2 §4.4',
  quote: ['| POST /networks/create |', '201 {Id, Warning}'],
  since: '1.21',
  tags: ['schema'],
  covers: ['2:POST /networks/create', '2:POST /networks/create:body:Name', '2:POST /networks/create:status:201'],
}, async (context) => {
  const res = await createNetworkPast500(context);
  context.expect(res.status, `POST /networks/create status: ${res.describe()}`).toBe(201);
  assertMatchesSchema(res.json(), NETWORK_CREATED_SCHEMA, 'the create answer');
});

check('networks.list.schema', {
  title: 'GET /networks items have Name, Id, Scope, Driver, IPAM, Containers, Options; EnableIPv6 and Internal from 1.23; Labels from 1.25',
  spec: '2 §2.4, §4.4',
  quote: ['Fields: Name, Id, Scope, Driver, EnableIPv6 (boolean), Internal (boolean), IPAM {Driver, Config (array of {Subnet, IPRange, Gateway}), Options (object)}, Containers (map container id to {Name, EndpointID, MacAddress, IPv4Address, IPv6Address}), Options (map string to string, driver options), Labels (map).', 'EnableIPv6 and Internal appear from 1.23; Labels at 1.25.', '200 array of network', 'Driver (default bridge)'],
  since: '1.21',
  tags: ['schema'],
  covers: ['2:GET /networks', '2:GET /networks:status:200', '2:version-rule:1.23:network-ipv6-internal', '2:version-rule:1.25:network-labels'],
}, async (context) => {
  const { id, container } = await networkWithContainer(context);
  const res = await readNetworks(context, '/networks');
  context.expect(res.status, 'GET /networks status').toBe(200);
  // Only the check's own network, with a container of its own on it: other checks' networks and
  // containers come and go meanwhile.
  const own = res.json<NetworkView[]>().filter((network) => network.Id === id);
  assertMatchesSchema(own, networkListSchema(context.version), `the list items at ${context.version}`);
  context.expect(own.map((network) => ({ Driver: network.Driver, containers: Object.keys(network.Containers ?? {}) })), `the item of network ${id}`).toEqual([{ Driver: 'bridge', containers: [container] }]);
});

check('networks.inspect.schema', {
  title: 'GET /networks/{id} has the network fields of the version, and Containers entries with Name, EndpointID, MacAddress, IPv4Address, IPv6Address',
  spec: '2 §2.4, §4.4, 1 §2.2',
  quote: ['Fields: Name, Id, Scope, Driver, EnableIPv6 (boolean), Internal (boolean), IPAM {Driver, Config (array of {Subnet, IPRange, Gateway}), Options (object)}, Containers (map container id to {Name, EndpointID, MacAddress, IPv4Address, IPv6Address}), Options (map string to string, driver options), Labels (map).', 'EnableIPv6 and Internal appear from 1.23; Labels at 1.25.', '| GET /networks/{network-id} | | none | 200 network | 200, 404 |', 'Driver (default bridge)', 'Name (string starting with `/`)'],
  since: '1.21',
  tags: ['schema'],
  covers: ['2:GET /networks/{network-id}', '2:GET /networks/{network-id}:status:200'],
}, async (context) => {
  const name = context.make.uniqueName('n');
  const { id, container } = await networkWithContainer(context, { Name: name });
  const res = await readNetworks(context, `/networks/${id}`);
  context.expect(res.status, 'GET /networks/{id} status').toBe(200);
  assertMatchesSchema(res.json(), networkSchema(context.version), `the network at ${context.version}`);
  const network = res.json<NetworkView>();
  const containerName = (await inspectContainer<{ Name: string }>(context, container)).Name.replace(/^\//, '');
  // the entry's Name is the container's, with or without the leading `/` of its inspect (spec/2 §2.4 gives no form)
  context.expect(
    { Name: network.Name, Id: network.Id, Driver: network.Driver, containers: Object.entries(network.Containers ?? {}).map(([key, endpoint]) => [key, endpoint.Name.replace(/^\//, '')]) },
    'the network as created, with the container on it',
  ).toEqual({ Name: name, Id: id, Driver: 'bridge', containers: [[container, containerName]] });
});
