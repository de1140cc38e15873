/**
 * One network: what it was created with, its address pools, and the endpoints of the running
 * containers on it. Joining gives a container's endpoint its addresses (requested ones, or the lowest
 * free of each pool) the way dockerd's bridge driver and IPAM do, with dockerd's errors; leaving
 * gives them back.
 */
import type { Container } from '../containers/container.ts';
import { PREDEFINED_NETWORKS } from '../containers/host-config.ts';
import { EngineError, ForbiddenError } from '../common/errors.ts';
import { addressBytes, parseIpAddress, type IpAddress, type IpFamily } from './ip-address.ts';
import type { IpAddressAllocator } from './ip-address-allocator.ts';

/** `swarm` networks belong to the swarm's managers: containers are not connected to them by hand. */
export type NetworkScope = 'local' | 'swarm';

/** One pool as the network shows it (IPAM.Config): what was given, and the Gateway when the engine chose the subnet. */
export interface IpamPoolView {
  Subnet: string;
  IPRange?: string;
  Gateway?: string;
  /** addresses the pool keeps from its containers, by name */
  AuxiliaryAddresses?: Record<string, string>;
}

export interface NetworkIpam {
  Driver: string;
  /** null when none were given, as dockerd shows them */
  Options: Record<string, string> | null;
  Config: IpamPoolView[];
}

export interface NetworkSettings {
  name: string;
  driver: string;
  scope: NetworkScope;
  internal: boolean;
  enableIPv6: boolean;
  attachable: boolean;
  ipam: NetworkIpam;
  options: Record<string, string>;
  labels: Record<string, string>;
}

export interface AddressPool {
  allocator: IpAddressAllocator;
  gateway: IpAddress;
  /** the subnet came in the create request (static addresses need one) rather than from the default pools */
  requested: boolean;
}

export interface EndpointAddress {
  address: IpAddress;
  prefixLength: number;
  gateway: IpAddress;
}

export interface NetworkEndpoint {
  id: string;
  container: Container;
  macAddress: string;
  ipv4?: EndpointAddress;
  ipv6?: EndpointAddress;
}

/** The addresses a container asks for on joining; absent ones are allocated. */
export interface RequestedAddresses {
  ipv4?: string;
  ipv6?: string;
  /** the container's own MAC address (Config.MacAddress); default: derived from its IPv4 address */
  mac?: string;
}

/** The networks every engine has, which cannot be created or removed. */
export class Network {
  /** by container id: the running containers on the network */
  readonly endpoints = new Map<string, NetworkEndpoint>();

  constructor(
    readonly id: string,
    readonly created: Date,
    readonly settings: NetworkSettings,
    readonly pools: AddressPool[],
  ) {}

  get name(): string {
    return this.settings.name;
  }

  get driver(): string {
    return this.settings.driver;
  }

  get scope(): NetworkScope {
    return this.settings.scope;
  }

  /** One of the engine's own networks rather than one a user created. */
  get builtin(): boolean {
    return (PREDEFINED_NETWORKS as readonly string[]).includes(this.name);
  }

  /** A pool of this family whose subnet the create request gave. */
  hasRequestedSubnet(family: IpFamily): boolean {
    return this.pools.some((pool) => pool.requested && pool.allocator.subnet.family === family);
  }

  /** The container's endpoint, with the requested addresses or allocated ones; nothing is kept when it fails. */
  join(container: Container, endpointId: string, requested: RequestedAddresses): NetworkEndpoint {
    const name = container.name.replace(/^\//, '');
    if (this.endpoints.has(container.id)) throw new ForbiddenError(`endpoint with name ${name} already exists in network ${this.name}`);
    const ipv4 = this.address(4, requested.ipv4);
    let ipv6: EndpointAddress | undefined;
    try {
      ipv6 = requested.ipv6 !== undefined || this.settings.enableIPv6 ? this.address(6, requested.ipv6) : undefined;
    } catch (error) {
      if (ipv4) this.poolOf(ipv4.address)?.allocator.release(ipv4.address);
      throw error;
    }
    const endpoint: NetworkEndpoint = { id: endpointId, container, macAddress: requested.mac || (ipv4 ? macAddressOf(ipv4.address) : ''), ipv4, ipv6 };
    this.endpoints.set(container.id, endpoint);
    return endpoint;
  }

  /** Takes the container's endpoint off the network and frees its addresses; undefined when it had none. */
  leave(container: Container): NetworkEndpoint | undefined {
    const endpoint = this.endpoints.get(container.id);
    if (!endpoint) return undefined;
    this.endpoints.delete(container.id);
    for (const held of [endpoint.ipv4, endpoint.ipv6]) if (held) this.poolOf(held.address)?.allocator.release(held.address);
    return endpoint;
  }

  /** An address of the family: the requested one, else the lowest free of the family's pools; none on a network without pools of it. */
  private address(family: IpFamily, requested: string | undefined): EndpointAddress | undefined {
    const pools = this.pools.filter((pool) => pool.allocator.subnet.family === family);
    if (requested === undefined) {
      if (pools.length === 0) return undefined;
      for (const pool of pools) {
        const address = pool.allocator.allocate();
        if (address) return { address, prefixLength: pool.allocator.subnet.prefixLength, gateway: pool.gateway };
      }
      throw new EngineError(`no available IP addresses on this network's address pools: ${this.name} (${this.id})`);
    }
    const address = parseIpAddress(requested);
    if (!address || address.family !== family) throw new EngineError(`Invalid IPv${family} address: ${requested}`);
    const pool = this.poolOf(address);
    if (!pool) throw new EngineError(`Invalid address ${requested}: It does not belong to any of this network's subnets`);
    if (pool.allocator.reserve(address) === 'in-use') throw new ForbiddenError('Address already in use');
    return { address, prefixLength: pool.allocator.subnet.prefixLength, gateway: pool.gateway };
  }

  private poolOf(address: IpAddress): AddressPool | undefined {
    return this.pools.find((pool) => pool.allocator.subnet.contains(address));
  }
}

/** dockerd's bridge driver derives the MAC address from the IPv4 address: 02:42 and its four bytes. */
function macAddressOf(address: IpAddress): string {
  return [0x02, 0x42, ...addressBytes(address)].map((byte) => byte.toString(16).padStart(2, '0')).join(':');
}

