/**
 * The endpoint settings a container is created with (NetworkingConfig.EndpointsConfig) and those a
 * connect gives: a container created with a static address on a network of a requested subnet runs
 * at that address (spec/1 §9.4, "static IP addresses at create", through NetworkingConfig, which
 * spec/1 §2.3 has from 1.25; what `docker run --network n --ip A` sends), IPv6 as IPv4; and, where
 * the spec is silent or disagrees with itself, as dockerd 20.10 does: the same before 1.25;
 * the Aliases, Links and LinkLocalIPs given show in inspect; a pool's AuxiliaryAddresses are kept and
 * no container gets one; a MacAddress given to a connect shows until the container joins.
 */
import { check, type CheckContext, type CheckMeta } from '../../harness/check.ts';
import { createContainer, createdContainer, inspectContainer, startContainer } from '../container-steps.ts';
import { connected, inspectNetwork, networkOn, ownNetwork, ownSubnets, runningContainer, type EndpointSettingsView, type OwnSubnets } from './network-steps.ts';

const ENDPOINTS: Omit<CheckMeta, 'title'> = {
  spec: '1 §2.1, §2.2, §2.3, §9.4',
  quote: [
    '1.22 update endpoint, container network list, KernelMemory minimum, read and write rate limits, static IP addresses at create',
    '| NetworkingConfig | object | [1.25] EndpointsConfig: map from network name to an object with IPAMConfig (IPv4Address, IPv6Address, LinkLocalIPs array), Links (array of string), Aliases (array of string) |',
    '| NetworkMode | string | bridge, host, none, `container:<name or id>`; any other value is the name of a custom network |',
    'Networks (map network name to endpoint settings)',
    'Endpoint settings object: IPAMConfig, Links, Aliases, NetworkID, EndpointID, Gateway, IPAddress, IPPrefixLen (integer), IPv6Gateway, GlobalIPv6Address, GlobalIPv6PrefixLen (integer), MacAddress.',
  ],
  since: '1.22',
  tags: ['state'],
};
const DOCKER: Pick<CheckMeta, 'level' | 'seen'> = { level: 'docker', seen: 'dockerd 20.10.24' };

interface CreatedEndpoint extends EndpointSettingsView {
  IPAMConfig: { IPv4Address?: string; IPv6Address?: string; LinkLocalIPs?: string[] } | null;
  Aliases: string[] | null;
  Links: string[] | null;
}

/** A container created on network `name` with `endpoint` as its NetworkingConfig entry, and started; returns its settings there. */
async function startedWithEndpoint(context: CheckContext, name: string, endpoint: Record<string, unknown>): Promise<CreatedEndpoint | undefined> {
  // created at the version under test: NetworkingConfig is what is judged
  const created = await createContainer(context, { Image: context.session.fixtureImage, Cmd: ['sleep', '300'], HostConfig: { NetworkMode: name }, NetworkingConfig: { EndpointsConfig: { [name]: endpoint } } });
  context.expect(created.status, `POST /containers/create status: ${created.describe()}`).toBe(201);
  const id = created.json<{ Id: string }>().Id;
  await startContainer(context, id);
  const inspected = await inspectContainer<{ NetworkSettings: { Networks?: Record<string, CreatedEndpoint> | null } }>(context, id);
  return inspected.NetworkSettings.Networks?.[name];
}

/** A network of the check's own on subnets of its own (IPv6 too when asked); returns its name. */
async function namedNetworkOn(context: CheckContext, subnets: OwnSubnets, ipv6 = false): Promise<string> {
  const name = context.make.uniqueName('n');
  const config = [{ Subnet: subnets.v4Subnet }, ...(ipv6 ? [{ Subnet: subnets.v6Subnet }] : [])];
  await ownNetwork(context, { Name: name, EnableIPv6: ipv6, IPAM: { Config: config } });
  return name;
}

/**
 * Static addresses at create: spec/1 §9.4 puts them at 1.22, but the only field that carries one,
 * NetworkingConfig, is "[1.25]" in spec/1 §2.3 (and EnableIPv6 appears from 1.23, spec/2 §2.4). The
 * spec level claims 1.25, where the text agrees with itself; 1.22 to 1.24 are dockerd's, which takes
 * NetworkingConfig from 1.22.
 */
const STATIC_AT_CREATE = [
  {
    id: 'networks.containers.static-address-at-create',
    family: 'IPv4',
    ipv6: false,
    quote: [] as string[],
    spec: '1 §2.1, §2.2, §2.3, §9.4',
    covers: ['1:version-rule:1.22:static-ip-at-create', '1:POST /containers/create:body:NetworkingConfig'],
    asked: (subnets: OwnSubnets) => ({ IPv4Address: subnets.v4(77) }),
    expected: (subnets: OwnSubnets) => subnets.v4(77),
    shown: (endpoint: CreatedEndpoint | undefined) => endpoint?.IPAddress,
  },
  {
    id: 'networks.containers.static-ipv6-address-at-create',
    family: 'IPv6',
    ipv6: true,
    quote: ['| POST /networks/create |', 'EnableIPv6 (boolean)', 'EnableIPv6 and Internal appear from 1.23'],
    spec: '1 §2.1, §2.2, §2.3, §9.4, 2 §2.4, §4.4',
    covers: ['1:version-rule:1.22:static-ip-at-create'],
    asked: (subnets: OwnSubnets) => ({ IPv4Address: subnets.v4(78), IPv6Address: subnets.v6(78) }),
    expected: (subnets: OwnSubnets) => subnets.v6(78),
    shown: (endpoint: CreatedEndpoint | undefined) => endpoint?.GlobalIPv6Address,
  },
];

for (const { id, family, ipv6, quote, spec, covers, asked, expected, shown } of STATIC_AT_CREATE) {
  const body = async (context: CheckContext) => {
    const subnets = ownSubnets();
    const name = await namedNetworkOn(context, subnets, ipv6);
    const endpoint = await startedWithEndpoint(context, name, { IPAMConfig: asked(subnets) });
    context.expect(shown(endpoint), `the container's ${family} address on ${name}`).toBe(expected(subnets));
  };
  const title = `a container created with NetworkingConfig IPAMConfig.${family}Address on ${ipv6 ? 'an IPv6 network' : 'a network'} of a requested subnet runs at that address`;
  check(id, { ...ENDPOINTS, spec, quote: [...(ENDPOINTS.quote ?? []), ...quote], since: '1.25', title, covers }, body);
  check(`${id}-before-1-25`, { ...ENDPOINTS, ...DOCKER, since: '1.22', until: '1.24', title: `before 1.25 too (dockerd takes NetworkingConfig from 1.22), ${title}` }, body);
}

check('networks.containers.endpoint-settings-at-create', {
  ...ENDPOINTS,
  ...DOCKER,
  title: 'the Aliases, Links and IPAMConfig.LinkLocalIPs a create gives in NetworkingConfig show in the running container\'s inspect',
}, async (context) => {
  const subnets = ownSubnets();
  const name = await namedNetworkOn(context, subnets);
  const peer = context.make.uniqueName('peer');
  await startContainer(context, await createdContainer(context, { Cmd: ['sleep', '300'], HostConfig: { NetworkMode: name } }, peer));
  const endpoint = await startedWithEndpoint(context, name, { IPAMConfig: { IPv4Address: subnets.v4(80), LinkLocalIPs: ['169.254.80.80'] }, Aliases: ['db', 'store'], Links: [`${peer}:upstream`] });
  context.expect(
    { ipam: endpoint?.IPAMConfig, aliases: (endpoint?.Aliases ?? []).filter((alias) => ['db', 'store'].includes(alias)), links: endpoint?.Links },
    `the container's settings on ${name}`,
  ).toEqual({ ipam: { IPv4Address: subnets.v4(80), LinkLocalIPs: ['169.254.80.80'] }, aliases: ['db', 'store'], links: [`${peer}:upstream`] });
});

check('networks.create.auxiliary-addresses', {
  ...DOCKER,
  spec: '2 §4.4',
  since: '1.21',
  tags: ['state'],
  title: 'IPAM.Config[].AuxiliaryAddresses are kept in the network\'s inspect, and a container on it never gets one',
}, async (context) => {
  const subnets = ownSubnets();
  const id = await ownNetwork(context, { IPAM: { Config: [{ Subnet: subnets.v4Subnet, Gateway: subnets.v4(1), AuxiliaryAddresses: { reserved: subnets.v4(2) } }] } });
  const pool = (await inspectNetwork(context, id)).IPAM.Config?.[0] as { AuxiliaryAddresses?: Record<string, string> } | undefined;
  context.expect(pool?.AuxiliaryAddresses, 'IPAM.Config[0].AuxiliaryAddresses as inspected').toEqual({ reserved: subnets.v4(2) });
  const container = await runningContainer(context);
  await connected(context, id, container);
  const inspected = await inspectContainer<{ NetworkSettings: { Networks?: Record<string, EndpointSettingsView> | null } }>(context, container);
  const address = Object.values(inspected.NetworkSettings.Networks ?? {}).find((settings) => settings.NetworkID === id)?.IPAddress;
  context.expect(address, 'the address the container got on the network').toBe(subnets.v4(3));
});

check('networks.connect.mac-address', {
  ...DOCKER,
  spec: '2 §4.4',
  since: '1.22',
  tags: ['state'],
  title: 'a connect of a container that is not running keeps the EndpointConfig.MacAddress given, shown in its inspect',
}, async (context) => {
  const subnets = ownSubnets();
  const id = await networkOn(context, subnets);
  const container = await createdContainer(context, { Cmd: ['sleep', '300'] });
  await connected(context, id, container, { MacAddress: '02:42:0a:0b:0c:0d' });
  const inspected = await inspectContainer<{ NetworkSettings: { Networks?: Record<string, EndpointSettingsView> | null } }>(context, container);
  const name = (await inspectNetwork(context, id)).Name;
  context.expect(inspected.NetworkSettings.Networks?.[name]?.MacAddress, `the container's MacAddress on ${name} before it starts`).toBe('02:42:0a:0b:0c:0d');
});
