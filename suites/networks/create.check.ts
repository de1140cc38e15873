/**
 * POST /networks/create (spec/2 §4.4): what a network is created with is what it shows — the driver
 * (bridge by default), Labels (from 1.25), Internal and EnableIPv6 (from 1.23), the IPAM
 * pools as given; the name is mandatory; an unknown driver is 404. As dockerd 20.10 does, where the
 * spec is silent: the driver Options as given, a subnet of its own when none is given, and
 * CheckDuplicate refusing a taken name.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { createNetwork, inspectNetwork, networkOn, ownNetwork, ownSubnets, readNetworks, type NetworkView } from './network-steps.ts';

check('networks.create.default-driver', {
  title: 'a network created without Driver is a bridge network',
  spec: '2 §4.4',
  quote: ['| POST /networks/create | | {Name (mandatory), CheckDuplicate (boolean), Driver (default bridge), Internal (boolean), IPAM (optional), EnableIPv6 (boolean), Options (map), Labels (map)} | 201 {Id, Warning} | 201, 404 (plugin not found), 500 |', '| GET /networks/{network-id} | | none | 200 network | 200, 404 |'],
  since: '1.21',
  tags: ['state'],
  covers: ['2:POST /networks/create:body:Driver'],
}, async (context) => {
  const network = await inspectNetwork(context, await ownNetwork(context));
  // Scope's values are not given (spec/2 §2.4): only the Driver's default is.
  context.expect(network.Driver, 'Driver').toBe('bridge');
});

check('networks.create.options-labels', {
  title: 'from 1.25 a network shows the Labels it was created with (which driver Options a driver keeps the spec does not say)',
  spec: '2 §2.4, §4.4',
  quote: ['| POST /networks/create | | {Name (mandatory), CheckDuplicate (boolean), Driver (default bridge), Internal (boolean), IPAM (optional), EnableIPv6 (boolean), Options (map), Labels (map)} | 201 {Id, Warning} | 201, 404 (plugin not found), 500 |', 'Options (map string to string, driver options), Labels (map).', 'EnableIPv6 and Internal appear from 1.23; Labels at 1.25.'],
  since: '1.25',
  tags: ['state'],
  covers: ['2:POST /networks/create:body:Labels', '2:version-rule:1.25:network-labels'],
}, async (context) => {
  const network = await inspectNetwork(context, await ownNetwork(context, { Labels: { 'shipshape.case': 'options-labels' } }));
  context.expect(network.Labels?.['shipshape.case'], 'Labels["shipshape.case"]').toBe('options-labels');
});

check('networks.create.options', {
  title: 'a bridge network shows the driver Options it was created with, and no others',
  spec: '2 §2.4',
  // "driver options": which ones a driver takes and shows is not given
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.21',
  tags: ['state'],
  covers: ['2:POST /networks/create:body:Options'],
}, async (context) => {
  const options = { 'com.docker.network.bridge.enable_icc': 'false' };
  const network = await inspectNetwork(context, await ownNetwork(context, { Options: options }));
  context.expect(network.Options, 'Options').toEqual(options);
});

check('networks.create.internal', {
  title: 'a network created with Internal shows Internal true',
  spec: '2 §2.4, §4.4',
  quote: ['| POST /networks/create | | {Name (mandatory), CheckDuplicate (boolean), Driver (default bridge), Internal (boolean), IPAM (optional), EnableIPv6 (boolean), Options (map), Labels (map)} | 201 {Id, Warning} | 201, 404 (plugin not found), 500 |', 'Internal (boolean)', 'EnableIPv6 and Internal appear from 1.23; Labels at 1.25.'],
  since: '1.23',
  tags: ['state'],
  covers: ['2:POST /networks/create:body:Internal', '2:version-rule:1.23:network-ipv6-internal'],
}, async (context) => {
  const network = await inspectNetwork(context, await ownNetwork(context, { Internal: true }));
  context.expect(network.Internal, 'Internal').toBe(true);
});

check('networks.create.enable-ipv6', {
  title: 'a network created with EnableIPv6 and an IPv6 subnet shows EnableIPv6 true and the subnet',
  spec: '2 §2.4, §4.4',
  quote: ['| POST /networks/create | | {Name (mandatory), CheckDuplicate (boolean), Driver (default bridge), Internal (boolean), IPAM (optional), EnableIPv6 (boolean), Options (map), Labels (map)} | 201 {Id, Warning} | 201, 404 (plugin not found), 500 |', 'EnableIPv6 (boolean)', 'IPAM {Driver, Config (array of {Subnet, IPRange, Gateway}), Options (object)}', 'EnableIPv6 and Internal appear from 1.23; Labels at 1.25.'],
  since: '1.23',
  tags: ['state'],
  covers: ['2:POST /networks/create:body:EnableIPv6', '2:version-rule:1.23:network-ipv6-internal'],
}, async (context) => {
  const subnets = ownSubnets();
  const id = await ownNetwork(context, { EnableIPv6: true, IPAM: { Config: [{ Subnet: subnets.v4Subnet }, { Subnet: subnets.v6Subnet }] } });
  const network = await inspectNetwork(context, id);
  context.expect(network.EnableIPv6, 'EnableIPv6').toBe(true);
  context.expect((network.IPAM.Config ?? []).map((pool) => pool.Subnet), 'the IPAM subnets').toContain(subnets.v6Subnet);
});

check('networks.create.ipam-config', {
  title: 'a network shows the IPAM pool it was created with: Subnet, IPRange and Gateway as given',
  spec: '2 §2.4, §4.4',
  quote: ['| POST /networks/create | | {Name (mandatory), CheckDuplicate (boolean), Driver (default bridge), Internal (boolean), IPAM (optional), EnableIPv6 (boolean), Options (map), Labels (map)} | 201 {Id, Warning} | 201, 404 (plugin not found), 500 |', 'IPAM {Driver, Config (array of {Subnet, IPRange, Gateway}), Options (object)}'],
  since: '1.21',
  tags: ['state'],
  covers: ['2:POST /networks/create:body:IPAM'],
}, async (context) => {
  const subnets = ownSubnets();
  const pool = { IPRange: `${subnets.v4(128)}/25`, Gateway: subnets.v4(1) };
  const network = await inspectNetwork(context, await networkOn(context, subnets, pool));
  // the three fields spec/2 §2.4 gives a pool; a daemon may show more (spec/1 §1)
  const pools = (network.IPAM.Config ?? []).map(({ Subnet, IPRange, Gateway }) => ({ Subnet, IPRange, Gateway }));
  context.expect(pools, `IPAM.Config ${JSON.stringify(network.IPAM.Config)}`).toEqual([{ Subnet: subnets.v4Subnet, ...pool }]);
});

/** The first and last address of an IPv4 CIDR block, as numbers; undefined for anything else. */
function ipv4Block(cidr: string): [number, number] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(cidr);
  if (!match) return undefined;
  const [a, b, c, d, length] = match.slice(1).map(Number) as [number, number, number, number, number];
  const size = 2 ** (32 - length);
  const first = Math.floor((((a * 256 + b) * 256 + c) * 256 + d) / size) * size;
  return [first, first + size - 1];
}

check('networks.create.default-subnet', {
  title: 'a network created without IPAM config gets an IPv4 subnet that overlaps no other network’s',
  spec: '2 §4.4',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.21',
  tags: ['state'],
  covers: ['2:POST /networks/create'],
}, async (context) => {
  const id = await ownNetwork(context);
  const res = await readNetworks(context, '/networks');
  context.expect(res.status, 'GET /networks status').toBe(200);
  const listed = res.json<NetworkView[]>();
  const subnetsOf = (network: NetworkView | undefined) =>
    (network?.IPAM.Config ?? []).map((pool) => ipv4Block(pool.Subnet)).filter((block): block is [number, number] => block !== undefined);
  const own = subnetsOf(listed.find((network) => network.Id === id));
  context.expect(own.length, `IPv4 subnets of the new network: ${JSON.stringify(listed.find((network) => network.Id === id)?.IPAM)}`).toBe(1);
  const [first, last] = own[0] ?? [0, 0];
  const overlapping = listed.filter((network) => network.Id !== id && subnetsOf(network).some(([otherFirst, otherLast]) => otherFirst <= last && first <= otherLast));
  context.expect(overlapping.map((network) => network.Name), 'networks whose subnets overlap the new one').toEqual([]);
});

/** How many networks GET /networks lists by this exact name. */
async function namesakes(context: CheckContext, name: string): Promise<number> {
  const { expect } = context;
  const res = await readNetworks(context, '/networks');
  expect(res.status, 'GET /networks status').toBe(200);
  return res.json<NetworkView[]>().filter((network) => network.Name === name).length;
}

check('networks.create.check-duplicate', {
  title: 'with CheckDuplicate a name another network has is refused, and no second network is made',
  spec: '2 §4.4, 1 §7.1',
  // spec/2 §4.4 gives "CheckDuplicate (boolean)" and not what a duplicate leads to
  level: 'docker',
  seen: 'dockerd 20.10.24',
  quote: ['| POST /networks/create | | {Name (mandatory), CheckDuplicate (boolean), Driver (default bridge), Internal (boolean), IPAM (optional), EnableIPv6 (boolean), Options (map), Labels (map)} | 201 {Id, Warning} | 201, 404 (plugin not found), 500 |', 'From 1.24 the response body is JSON: an object with a single string field `message`.', 'Before 1.24 the body is plain text.'],
  since: '1.21',
  tags: ['error', 'state'],
  covers: ['2:POST /networks/create:body:CheckDuplicate', '2:POST /networks/create:body:Name'],
}, async (context) => {
  const name = context.make.uniqueName('dup');
  await ownNetwork(context, { Name: name });
  const res = await createNetwork(context, { Name: name, CheckDuplicate: true });
  context.expect(res.status, 'POST /networks/create status for a duplicate name with CheckDuplicate').toBeGreaterThanOrEqual(400);
  expectErrorBodyOfVersion(context, res);
  context.expect(await namesakes(context, name), `networks named ${name}`).toBe(1);
});

check('networks.create.duplicate-unchecked', {
  title: 'without CheckDuplicate a second network of a name is created beside the first',
  spec: '2 §4.4',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.21',
  tags: ['state'],
  covers: ['2:POST /networks/create:body:CheckDuplicate'],
}, async (context) => {
  const name = context.make.uniqueName('dup');
  const first = await ownNetwork(context, { Name: name });
  const second = await ownNetwork(context, { Name: name });
  context.expect(second, 'the second network’s id').not.toBe(first);
  context.expect(await namesakes(context, name), `networks named ${name}`).toBe(2);
});

check('networks.create.name-required', {
  title: 'a create without Name is refused',
  spec: '2 §4.4, 1 §7.1',
  quote: ['| POST /networks/create | | {Name (mandatory), CheckDuplicate (boolean), Driver (default bridge), Internal (boolean), IPAM (optional), EnableIPv6 (boolean), Options (map), Labels (map)} | 201 {Id, Warning} | 201, 404 (plugin not found), 500 |', 'From 1.24 the response body is JSON: an object with a single string field `message`.', 'Before 1.24 the body is plain text.'],
  since: '1.21',
  tags: ['error'],
  covers: ['2:POST /networks/create:body:Name'],
}, async (context) => {
  // Name left out (undefined is not sent); an empty Name is a name given
  const res = await createNetwork(context, { Name: undefined });
  context.expect(res.status, 'POST /networks/create status without Name').toBeGreaterThanOrEqual(400);
  expectErrorBodyOfVersion(context, res);
});

check('networks.create.unknown-driver', {
  title: 'a create with a driver the daemon does not have answers 404 (plugin not found)',
  spec: '2 §4.4, 1 §7.1',
  quote: ['| POST /networks/create | | {Name (mandatory), CheckDuplicate (boolean), Driver (default bridge), Internal (boolean), IPAM (optional), EnableIPv6 (boolean), Options (map), Labels (map)} | 201 {Id, Warning} | 201, 404 (plugin not found), 500 |', 'From 1.24 the response body is JSON: an object with a single string field `message`.', 'Before 1.24 the body is plain text.'],
  since: '1.21',
  tags: ['error'],
  covers: ['2:POST /networks/create:body:Driver', '2:POST /networks/create:status:404'],
}, async (context) => {
  const res = await createNetwork(context, { Driver: 'shipshape-no-such-driver' });
  context.expect(res.status, 'POST /networks/create status').toBe(404);
  expectErrorBodyOfVersion(context, res);
});
