/**
 * The address pools of a new network, as dockerd's default IPAM driver sets them up: the requested
 * subnets (with their IPRange and Gateway) or, for a family without one, the first of the default
 * pools that overlaps no other network's subnet; each pool's gateway taken before any container's
 * address. The errors are dockerd's, by kind and wording.
 */
import { EngineError, ForbiddenError, InvalidParameterError, NotFoundError } from '../common/errors.ts';
import { formatIpAddress, parseIpAddress, type IpAddress, type IpFamily } from './ip-address.ts';
import { IpAddressAllocator } from './ip-address-allocator.ts';
import { IpSubnet } from './ip-subnet.ts';
import type { AddressPool, IpamPoolView, NetworkScope } from './network.ts';

export const DEFAULT_IPAM_DRIVER = 'default';

export interface IpamPoolRequest {
  Subnet?: string;
  IPRange?: string;
  Gateway?: string;
  AuxiliaryAddresses?: Record<string, string>;
}

export interface PoolsRequest {
  config: IpamPoolRequest[];
  enableIPv6: boolean;
  /** the bridge driver takes one subnet per family */
  singleSubnet: boolean;
  scope: NetworkScope;
  /** the subnets other networks hold: a new pool may overlap none */
  taken: IpSubnet[];
}

export interface Pools {
  pools: AddressPool[];
  /** IPAM.Config as the network shows it */
  views: IpamPoolView[];
}

/**
 * dockerd's default address pools: 172.17.0.0/16 to 172.31.0.0/16, then 192.168.0.0/16 in /20s for
 * local networks; 10.0.0.0/8 in /24s for swarm ones.
 */
function* defaultSubnets(scope: NetworkScope): Generator<IpSubnet> {
  const parse = (text: string) => IpSubnet.parse(text) as IpSubnet;
  if (scope === 'swarm') {
    for (let index = 0; index < 65536; index++) yield parse(`10.${index >> 8}.${index & 255}.0/24`);
    return;
  }
  for (let second = 17; second <= 31; second++) yield parse(`172.${second}.0.0/16`);
  for (let third = 0; third < 256; third += 16) yield parse(`192.168.${third}.0/20`);
}

export function createPools(request: PoolsRequest): Pools {
  const requested = request.config.map((pool) => ({ pool, subnet: parsedSubnet(pool.Subnet ?? '') }));
  const ofFamily = (family: IpFamily) => requested.filter(({ subnet }) => subnet.family === family);
  if (request.singleSubnet && (ofFamily(4).length > 1 || ofFamily(6).length > 1)) {
    throw new ForbiddenError("bridge driver doesn't support multiple subnets");
  }
  const taken = [...request.taken];
  const pools: Pools = { pools: [], views: [] };
  for (const { pool, subnet } of requested) {
    if (taken.some((other) => other.overlaps(subnet))) throw new ForbiddenError('Pool overlaps with other one on this address space');
    taken.push(subnet);
    const range = pool.IPRange ? IpSubnet.parse(pool.IPRange) : undefined;
    if (pool.IPRange && !range) throw new InvalidParameterError(`invalid pool request: invalid CIDR address: ${pool.IPRange}`);
    const allocator = new IpAddressAllocator(subnet, range);
    pools.pools.push({ allocator, gateway: gatewayOf(allocator, pool.Gateway), requested: true });
    const auxiliary = pool.AuxiliaryAddresses ?? {};
    for (const [name, text] of Object.entries(auxiliary)) reserveAuxiliary(allocator, name, text);
    pools.views.push({ Subnet: pool.Subnet ?? '', ...(pool.IPRange && { IPRange: pool.IPRange }), ...(pool.Gateway && { Gateway: pool.Gateway }), ...(Object.keys(auxiliary).length > 0 && { AuxiliaryAddresses: auxiliary }) });
  }
  if (ofFamily(4).length === 0) {
    const subnet = [...defaultSubnets(request.scope)].find((candidate) => !taken.some((other) => other.overlaps(candidate)));
    if (!subnet) throw new NotFoundError('could not find an available, non-overlapping IPv4 address pool among the defaults to assign to the network');
    const allocator = new IpAddressAllocator(subnet);
    const gateway = gatewayOf(allocator, undefined);
    pools.pools.unshift({ allocator, gateway, requested: false });
    pools.views.unshift({ Subnet: subnet.text, Gateway: formatIpAddress(gateway) });
  }
  // There are no default IPv6 pools: IPv6 needs a subnet of its own.
  if (request.enableIPv6 && ofFamily(6).length === 0) {
    throw new NotFoundError('could not find an available, non-overlapping IPv6 address pool among the defaults to assign to the network');
  }
  return pools;
}

function parsedSubnet(text: string): IpSubnet {
  const subnet = IpSubnet.parse(text);
  // dockerd answers 500 in these words; the subnet is the client's mistake (issue 16), so 400
  if (!subnet) throw new InvalidParameterError(`Invalid subnet ${text} : invalid CIDR address: ${text}`);
  return subnet;
}

/** An auxiliary address is one no container gets, dynamically or by request (dockerd's IPAM reserves it). */
function reserveAuxiliary(allocator: IpAddressAllocator, name: string, text: string): void {
  const address = parseIpAddress(text);
  if (!address || allocator.reserve(address) === 'out-of-range') throw new ForbiddenError(`auxiliary address: (${name}:${text}) must belong to the master pool: ${allocator.subnet.text}`);
}

/** The given gateway, else the first free address of the pool's range (dockerd's IPAM hands it out like any other); taken at once. */
function gatewayOf(allocator: IpAddressAllocator, given: string | undefined): IpAddress {
  if (given === undefined || given === '') {
    const first = allocator.allocate();
    // a /32 (or /128) subnet leaves no address for the gateway: the client's mistake (dockerd: 500)
    if (!first) throw new InvalidParameterError(`failed to allocate gateway: no address left in ${allocator.subnet.text}`);
    return first;
  }
  const gateway = parseIpAddress(given);
  if (!gateway) throw new InvalidParameterError(`invalid gateway address ${given} in Ipam configuration`);
  const reservation = allocator.reserve(gateway);
  if (reservation === 'out-of-range') throw new EngineError(`failed to allocate gateway (${given}): Requested address is out of range`);
  if (reservation === 'in-use') throw new EngineError(`failed to allocate gateway (${given}): Address already in use`);
  return gateway;
}
