/**
 * Steps the network checks take: create networks (labelled with the run, named by it, on subnets
 * picked at random so that checks running side by side, and the daemon's own networks, do not
 * clash), inspect them, connect and disconnect containers, and read both sides of an endpoint. Each
 * step asserts the answer it depends on, so a target that cannot take the step fails the check there
 * and says which request it was. Every network goes with the check; it is made before the containers
 * that join it, so that they go first.
 */
import { randomInt } from 'node:crypto';
import type { CheckContext } from '../../harness/check.ts';
import type { ApiResponse } from '../../harness/client/api-response.ts';
import { inspectContainer, startedContainer } from '../container-steps.ts';

export interface NetworkEndpointView {
  Name: string;
  EndpointID: string;
  MacAddress: string;
  IPv4Address: string;
  IPv6Address: string;
}

export interface NetworkView {
  Name: string;
  Id: string;
  Scope: string;
  Driver: string;
  EnableIPv6?: boolean;
  Internal?: boolean;
  IPAM: { Driver: string; Config: { Subnet: string; IPRange?: string; Gateway?: string }[] | null; Options?: Record<string, string> | null };
  Containers: Record<string, NetworkEndpointView> | null;
  Options: Record<string, string> | null;
  Labels?: Record<string, string> | null;
}

/** A container's settings on one network (its inspect's NetworkSettings.Networks entry). */
export interface EndpointSettingsView {
  NetworkID: string;
  EndpointID: string;
  Gateway: string;
  IPAddress: string;
  IPPrefixLen: number;
  IPv6Gateway: string;
  GlobalIPv6Address: string;
  GlobalIPv6PrefixLen: number;
  MacAddress: string;
}

/** A /24 of its own and a /64 to go with it: `v4(n)` and `v6(n)` are their nth addresses. */
export interface OwnSubnets {
  v4Subnet: string;
  v6Subnet: string;
  v4(host: number): string;
  v6(host: number): string;
}

/** 10.200.0.0/13 and fd00:5eed::/32 hold no daemon's defaults; one /24 of 2048 each time. */
export function ownSubnets(): OwnSubnets {
  const second = 200 + randomInt(8);
  const third = randomInt(256);
  // four digits, no leading zero: the text stays as Go writes it back
  const group = randomInt(0x1000, 0x10000).toString(16);
  return {
    v4Subnet: `10.${second}.${third}.0/24`,
    v6Subnet: `fd00:5eed:${group}::/64`,
    v4: (host) => `10.${second}.${third}.${host}`,
    v6: (host) => `fd00:5eed:${group}::${host.toString(16)}`,
  };
}

/**
 * POST /networks/create at the version under test with `body`, labelled with the run and named by it
 * unless the body names it; a network the target creates is removed after the check. The answer is
 * returned as it came, refusals included.
 */
export async function createNetwork(context: CheckContext, body: Record<string, unknown> = {}): Promise<ApiResponse> {
  const { engine, make } = context;
  const labels = { ...(body.Labels as Record<string, string> | undefined), ...make.labels };
  const json = { Name: make.uniqueName('n'), ...body, Labels: labels };
  const res = await engine.post('/networks/create', { json });
  if (res.status === 201) make.network(res.json<{ Id: string }>().Id);
  // a server error may come after the network was made: should it be there, it goes with the check
  else if (res.status >= 500 && typeof json.Name === 'string' && json.Name !== '') make.network(json.Name);
  return res;
}

/**
 * {@link createNetwork} of a network that must be made. Podman 4.3, making networks while others come
 * and go, now and then answers 500 "route ip+net: no such network interface" (its search for a free
 * subnet meets a bridge being removed): that answer is tried once more.
 */
export async function createNetworkPast500(context: CheckContext, body: Record<string, unknown> = {}): Promise<ApiResponse> {
  const res = await createNetwork(context, body);
  return res.status === 500 && res.text().includes('no such network interface') ? createNetwork(context, body) : res;
}

/** A network made with `body`, which must be created ({@link createNetworkPast500}); returns its id. */
export async function ownNetwork(context: CheckContext, body: Record<string, unknown> = {}): Promise<string> {
  const res = await createNetworkPast500(context, body);
  context.expect(res.status, `POST /networks/create status: ${res.describe()}`).toBe(201);
  return res.json<{ Id: string }>().Id;
}

/** A network on a subnet of its own (`IPAM` entries besides the Subnet go in `pool`); returns its id. */
export function networkOn(context: CheckContext, subnets: OwnSubnets, pool: Record<string, string> = {}, body: Record<string, unknown> = {}): Promise<string> {
  return ownNetwork(context, { ...body, IPAM: { Config: [{ Subnet: subnets.v4Subnet, ...pool }] } });
}

/** How long a network read waits out server errors, polling. */
const SERVER_ERROR_GRACE_MS = 10_000;

/**
 * GET of a network path, waiting out server errors for a while: Podman 4.3 answers every network read
 * with 500 "network inspection mismatch" while any container on it is half-joined, as another check's
 * refused connect leaves one until it takes it off (networks.connect.address-in-use). A server error
 * that lasts is returned, for the check to judge.
 */
export async function readNetworks({ engine }: Pick<CheckContext, 'engine'>, path: string, filters?: Record<string, string[]>): Promise<ApiResponse> {
  const deadline = Date.now() + SERVER_ERROR_GRACE_MS;
  for (;;) {
    const res = await engine.get(path, { query: filters && Object.keys(filters).length > 0 ? { filters: JSON.stringify(filters) } : {} });
    if (res.status < 500 || Date.now() >= deadline) return res;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function inspectNetwork(context: CheckContext, reference: string): Promise<NetworkView> {
  const res = await readNetworks(context, `/networks/${encodeURIComponent(reference)}`);
  context.expect(res.status, `GET /networks/{id} status: ${res.describe()}`).toBe(200);
  return res.json<NetworkView>();
}

export async function networkStatus(context: CheckContext, reference: string): Promise<number> {
  return (await readNetworks(context, `/networks/${encodeURIComponent(reference)}`)).status;
}

/** The names GET /networks lists with `filters`, narrowed to `own` (other checks and the daemon have networks too); sorted. */
export async function listedAmong(context: CheckContext, own: string[], filters: Record<string, string[]> = {}): Promise<string[]> {
  const { expect } = context;
  const res = await readNetworks(context, '/networks', filters);
  expect(res.status, 'GET /networks status').toBe(200);
  return res
    .json<NetworkView[]>()
    .map((network) => network.Name)
    .filter((name) => own.includes(name))
    .sort();
}

export function connect({ engine }: CheckContext, network: string, container: string, endpointConfig?: Record<string, unknown>): Promise<ApiResponse> {
  return engine.post(`/networks/${network}/connect`, { json: { Container: container, ...(endpointConfig && { EndpointConfig: endpointConfig }) } });
}

export function disconnect({ engine }: CheckContext, network: string, container: string, force?: boolean): Promise<ApiResponse> {
  return engine.post(`/networks/${network}/disconnect`, { json: { Container: container, ...(force !== undefined && { Force: force }) } });
}

/** Connects a container, which must succeed. */
export async function connected(context: CheckContext, network: string, container: string, endpointConfig?: Record<string, unknown>): Promise<void> {
  const res = await connect(context, network, container, endpointConfig);
  context.expect(res.status, 'POST /networks/{id}/connect status').toBe(200);
}

/** A container of the fixture image that runs until it is killed (PID 1 ignores SIGTERM); `config` adds to its creation. */
export function runningContainer(context: CheckContext, config: Record<string, unknown> = {}): Promise<string> {
  return startedContainer(context, { Cmd: ['sleep', '300'], ...config });
}

/** A network of the check's own (made with `body`) and a running container connected to it. */
export async function networkWithContainer(context: CheckContext, body: Record<string, unknown> = {}): Promise<{ id: string; container: string }> {
  const id = await ownNetwork(context, body);
  const container = await runningContainer(context);
  await connected(context, id, container);
  return { id, container };
}

/** A network of the check's own and a running container created with it as NetworkMode. */
export async function networkModeContainer(context: CheckContext): Promise<{ id: string; name: string; container: string }> {
  const name = context.make.uniqueName('n');
  const id = await ownNetwork(context, { Name: name });
  const container = await runningContainer(context, { HostConfig: { NetworkMode: name } });
  return { id, name, container };
}

/** The endpoint of `container` as each side shows it: the network's Containers entry, the container's Networks entry. */
export async function bothSides(context: CheckContext, network: string, container: string): Promise<{ network?: NetworkEndpointView; container?: EndpointSettingsView; name: string }> {
  const view = await inspectNetwork(context, network);
  const inspected = await inspectContainer<{ NetworkSettings: { Networks?: Record<string, EndpointSettingsView> | null } }>(context, container);
  return { network: view.Containers?.[container], container: inspected.NetworkSettings.Networks?.[view.Name] ?? undefined, name: view.Name };
}
