/**
 * The endpoint settings a container is created with (NetworkingConfig.EndpointsConfig) and those a
 * connect gives: from 1.22 a container created with a static address on a network of a requested
 * subnet runs at that address (spec/1 §9.4, "static IP addresses at create"; what `docker run
 * --network n --ip A` sends), IPv6 as IPv4; and, where the spec is silent, as dockerd 20.10 does:
 * the Aliases, Links and LinkLocalIPs given show in inspect; a pool's AuxiliaryAddresses are kept and
 * no container gets one; a MacAddress given to a connect shows until the container joins.
 */
import { check, type CheckContext, type CheckMeta } from '../../harness/check.ts';
import { createdContainer, inspectContainer, startContainer } from '../container-steps.ts';
import { connected, inspectNetwork, networkOn, ownNetwork, ownSubnets, runningContainer, type EndpointSettingsView, type OwnSubnets } from './network-steps.ts';

const ENDPOINTS: Omit<CheckMeta, 'title'> = { spec: '1 §9.4', since: '1.22', tags: ['state'] };
const DOCKER: Pick<CheckMeta, 'level' | 'seen'> = { level: 'docker', seen: 'dockerd 20.10.24' };

interface CreatedEndpoint extends EndpointSettingsView {
  IPAMConfig: { IPv4Address?: string; IPv6Address?: string; LinkLocalIPs?: string[] } | null;
  Aliases: string[] | null;
  Links: string[] | null;
}

/** A container created on network `name` with `endpoint` as its NetworkingConfig entry, and started; returns its settings there. */
async function startedWithEndpoint(context: CheckContext, name: string, endpoint: Record<string, unknown>): Promise<CreatedEndpoint | undefined> {
  const id = await createdContainer(context, { Cmd: ['sleep', '300'], HostConfig: { NetworkMode: name }, NetworkingConfig: { EndpointsConfig: { [name]: endpoint } } });
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

check('networks.containers.static-address-at-create', {
  ...ENDPOINTS,
  title: 'from 1.22 a container created with NetworkingConfig IPAMConfig.IPv4Address on a network of a requested subnet runs at that address',
  covers: ['1:version-rule:1.22:static-ip-at-create', '1:POST /containers/create:body:NetworkingConfig'],
}, async (context) => {
  const subnets = ownSubnets();
  const name = await namedNetworkOn(context, subnets);
  const endpoint = await startedWithEndpoint(context, name, { IPAMConfig: { IPv4Address: subnets.v4(77) } });
  context.expect(endpoint?.IPAddress, `the container's address on ${name}`).toBe(subnets.v4(77));
});

check('networks.containers.static-ipv6-address-at-create', {
  ...ENDPOINTS,
  title: 'from 1.22 a container created with NetworkingConfig IPAMConfig.IPv6Address on an IPv6 network of a requested subnet runs at that address',
  covers: ['1:version-rule:1.22:static-ip-at-create'],
}, async (context) => {
  const subnets = ownSubnets();
  const name = await namedNetworkOn(context, subnets, true);
  const endpoint = await startedWithEndpoint(context, name, { IPAMConfig: { IPv4Address: subnets.v4(78), IPv6Address: subnets.v6(78) } });
  context.expect(endpoint?.GlobalIPv6Address, `the container's IPv6 address on ${name}`).toBe(subnets.v6(78));
});

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
