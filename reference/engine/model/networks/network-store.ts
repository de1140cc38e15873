/**
 * The networks the engine holds: the predefined bridge (172.17.0.0/16), host and none, whose ids are
 * made once for the engine's life, and the ones users create; find (dockerd's order: full id, exact
 * name, id prefix), list, remove. Creation follows dockerd's rules and order: predefined names are
 * refused, a duplicate name only with CheckDuplicate (else it is a warning), `overlay` only in a swarm
 * and then swarm-scoped, `host` and `null` only once.
 */
import type { ContainerNetworks } from '../containers/container.ts';
import { AmbiguousReferenceError, ConflictError, EngineError, ForbiddenError, InvalidParameterError, NotFoundError } from '../common/errors.ts';
import { createPools, DEFAULT_IPAM_DRIVER, type IpamPoolRequest } from './network-ipam.ts';
import type { NetworkEvents } from './network-events.ts';
import { checkNetworkTypes, danglingFilter, matchesNetworkFilters, type NetworkListFilters } from './network-list-filters.ts';
import { isPredefinedName, PREDEFINED_NETWORKS } from '../containers/host-config.ts';
import { Network, type NetworkScope, type NetworkSettings } from './network.ts';

export interface NetworkCreateOptions {
  name: string;
  /** refuse a name another network has, rather than warn */
  checkDuplicate?: boolean;
  /** default bridge */
  driver?: string;
  internal?: boolean;
  enableIPv6?: boolean;
  attachable?: boolean;
  ipam?: {
    driver?: string;
    config?: IpamPoolRequest[];
    options?: Record<string, string>;
  };
  options?: Record<string, string>;
  labels?: Record<string, string>;
}

export interface NetworkCreated {
  network: Network;
  /** '' unless the name was already taken */
  warning: string;
}

export interface NetworkStoreOptions {
  clock: () => Date;
  ids: () => string;
  events: NetworkEvents;
  /** whether the engine is part of a swarm, where `overlay` networks can be made (default: never) */
  inSwarm?: () => boolean;
  /** the id of a service attached to the network, which keeps a swarm-scoped one from removal */
  serviceUsing?: (network: Network) => string | undefined;
}

/** Drivers with one network each, the predefined one. */
const SINGLETON_DRIVERS = ['host', 'null'];
const SWARM_DRIVER = 'overlay';
const KNOWN_DRIVERS = ['bridge', ...SINGLETON_DRIVERS, SWARM_DRIVER];

/** The options dockerd gives its default bridge. */
const DEFAULT_BRIDGE_OPTIONS: Record<string, string> = {
  'com.docker.network.bridge.default_bridge': 'true',
  'com.docker.network.bridge.enable_icc': 'true',
  'com.docker.network.bridge.enable_ip_masquerade': 'true',
  'com.docker.network.bridge.host_binding_ipv4': '0.0.0.0',
  'com.docker.network.bridge.name': 'docker0',
  'com.docker.network.driver.mtu': '1500',
};

/** The bridge driver's options, those its default network is made with. */
export const BRIDGE_DRIVER_OPTIONS: readonly string[] = Object.keys(DEFAULT_BRIDGE_OPTIONS);

export class NetworkStore {
  private held: Network[] | undefined;

  constructor(private readonly options: NetworkStoreOptions) {}

  /**
   * In creation order, dockerd's none, host and bridge first. Those are made on first use, so that
   * making a store takes nothing from the injected clock and ids.
   */
  private get networks(): Network[] {
    this.held ??= [
      this.build({ name: 'none', driver: 'null' }, 'local'),
      this.build({ name: 'host', driver: 'host' }, 'local'),
      this.build({ name: 'bridge', driver: 'bridge', ipam: { config: [{ Subnet: '172.17.0.0/16', Gateway: '172.17.0.1' }] }, options: DEFAULT_BRIDGE_OPTIONS }, 'local'),
    ];
    return this.held;
  }

  create(options: NetworkCreateOptions): NetworkCreated {
    if (isPredefinedName(options.name)) throw new ForbiddenError(`operation is not permitted on predefined ${options.name} network `);
    const namesake = this.networks.find((network) => network.name === options.name);
    if (namesake && options.checkDuplicate) throw new ConflictError(`network with name ${options.name} already exists`);
    const driver = options.driver || 'bridge';
    if (driver === SWARM_DRIVER && !this.options.inSwarm?.()) {
      throw new EngineError('This node is not a swarm manager. Use "docker swarm init" or "docker swarm join" to connect this node to swarm and try again.');
    }
    // dockerd answers 500; a missing name is the client's mistake (issue 16), so 400 in its words
    if (options.name === '') throw new InvalidParameterError('invalid name: ');
    for (const plugin of [driver, options.ipam?.driver || DEFAULT_IPAM_DRIVER]) {
      if (![...KNOWN_DRIVERS, DEFAULT_IPAM_DRIVER].includes(plugin)) throw new NotFoundError(`plugin "${plugin}" not found`);
    }
    if (SINGLETON_DRIVERS.includes(driver)) throw new ForbiddenError(`only one instance of "${driver}" network is allowed`);
    const network = this.build({ ...options, driver }, driver === SWARM_DRIVER ? 'swarm' : 'local');
    this.networks.push(network);
    this.options.events.publish(network, 'create');
    return { network, warning: namesake ? `Network with name ${namesake.name} (id : ${namesake.id}) already exists` : '' };
  }

  private build(options: NetworkCreateOptions & { driver: string }, scope: NetworkScope): Network {
    const addressed = !SINGLETON_DRIVERS.includes(options.driver);
    const enableIPv6 = options.enableIPv6 ?? false;
    const { pools, views } = addressed
      ? createPools({
          config: options.ipam?.config ?? [],
          enableIPv6,
          singleSubnet: options.driver === 'bridge',
          scope,
          // While the predefined networks are being made there is nothing to overlap yet.
          taken: (this.held ?? []).flatMap((network) => network.pools.map((pool) => pool.allocator.subnet)),
        })
      : { pools: [], views: [] };
    const settings: NetworkSettings = {
      name: options.name,
      driver: options.driver,
      scope,
      internal: options.internal ?? false,
      enableIPv6,
      attachable: options.attachable ?? false,
      ipam: { Driver: options.ipam?.driver || DEFAULT_IPAM_DRIVER, Options: options.ipam?.options ?? null, Config: views },
      options: { ...options.options },
      labels: { ...options.labels },
    };
    return new Network(this.options.ids(), this.options.clock(), settings, pools);
  }

  /**
   * By full id, then exact name, then id prefix (dockerd's FindNetwork); several networks of one name
   * or one prefix are ambiguous.
   */
  find(reference: string): Network {
    const byId = this.networks.find((network) => network.id === reference);
    if (byId) return byId;
    for (const [matches, basis] of [
      [(network: Network) => network.name === reference, 'name'],
      [(network: Network) => network.id.startsWith(reference), 'ID prefix'],
    ] as const) {
      const found = this.networks.filter(matches);
      if (found.length > 1) throw new AmbiguousReferenceError(`network ${reference} is ambiguous (${found.length} matches found based on ${basis})`);
      if (found[0]) return found[0];
    }
    throw new NotFoundError(`network ${reference} not found`);
  }

  /** The network a container's settings name: by the id it joined with, else by the name it was given. */
  findFor(networks: ContainerNetworks, key: string): Network {
    return this.find(networks[key]?.NetworkID || key);
  }

  list(filters: NetworkListFilters = {}): Network[] {
    checkNetworkTypes(filters.type);
    danglingFilter(filters.dangling);
    return this.networks.filter((network) => matchesNetworkFilters(network, filters));
  }

  /** Predefined networks stay; one with running containers on it too. */
  remove(network: Network): void {
    if (network.builtin) throw new ForbiddenError(`${network.name} is a pre-defined network and cannot be removed`);
    if (network.endpoints.size > 0) {
      throw new ForbiddenError(`error while removing network: network ${network.name} id ${network.id} has active endpoints`);
    }
    const service = network.scope === 'swarm' ? this.options.serviceUsing?.(network) : undefined;
    if (service !== undefined) throw new InvalidParameterError(`rpc error: code = FailedPrecondition desc = network ${network.id} is in use by service ${service}`);
    const index = this.networks.indexOf(network);
    if (index < 0) throw new NotFoundError(`network ${network.id} not found`);
    this.networks.splice(index, 1);
    this.options.events.publish(network, 'destroy');
  }

  /** The engine left its swarm: the swarm's networks go with it. */
  removeSwarmScoped(): void {
    for (const network of this.networks.filter((held) => held.scope === 'swarm')) {
      this.networks.splice(this.networks.indexOf(network), 1);
      this.options.events.publish(network, 'destroy');
    }
  }

  /** Back to the predefined networks, with no endpoints, and their ids kept. */
  reset(): void {
    this.networks.splice(PREDEFINED_NETWORKS.length);
    for (const network of this.networks) for (const endpoint of [...network.endpoints.values()]) network.leave(endpoint.container);
  }

  [Symbol.iterator](): IterableIterator<Network> {
    return this.networks.values();
  }
}
