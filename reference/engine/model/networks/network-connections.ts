/**
 * Containers on networks, kept in step from both sides: a container's settings per network
 * (NetworkSettings.Networks) and the network's endpoints (its Containers). dockerd's rules
 * (daemon/container_operations.go):
 *
 * - connecting a container that is not running only records the settings (a network that does not
 *   exist yet included); it joins when it starts, and leaves when its process ends, keeping the
 *   settings and the network id, losing the endpoint and its addresses;
 * - connecting a running one joins at once; disconnecting leaves and forgets the settings;
 * - the predefined networks take no static address, only networks with a requested subnet do; a
 *   container on `host` or sharing another's namespace joins no other network, nor one on `none`;
 * - connect and disconnect on a swarm-scoped network are forbidden (spec/2 §3).
 */
import type { Container, EndpointIpamConfig, EndpointSettings } from '../containers/container.ts';
import { unattachedEndpoint } from '../containers/container.ts';
import type { ContainerNetworking } from '../containers/container-lifecycle.ts';
import type { ContainerStore } from '../containers/container-store.ts';
import { AmbiguousReferenceError, ConflictError, EngineError, ForbiddenError, InvalidParameterError, NotFoundError } from '../common/errors.ts';
import { isPredefinedName, networkNamesOf } from '../containers/host-config.ts';
import { formatIpAddress } from './ip-address.ts';
import type { NetworkEvents } from './network-events.ts';
import type { NetworkStore } from './network-store.ts';
import type { Network, NetworkEndpoint } from './network.ts';

/** What a connect asks for besides the container (EndpointConfig). */
export interface EndpointRequest {
  IPAMConfig?: EndpointIpamConfig | null;
  Aliases?: string[] | null;
  Links?: string[] | null;
  /** kept until the container joins, when the endpoint's own replaces it (dockerd 20.10 does not apply it) */
  MacAddress?: string;
}

export interface NetworkConnectionsOptions {
  networks: NetworkStore;
  containers: ContainerStore;
  events: NetworkEvents;
  /** endpoint ids */
  ids: () => string;
}

const HOST_NETWORK_CONFLICT = 'container cannot be disconnected from host network or connected to host network';
const SHARED_NAMESPACE_CONFLICT = 'container sharing network namespace with another container or host cannot be connected to any other network';
const NO_NETWORK_CONFLICT = 'container cannot be connected to multiple networks with one of the networks in private (none) mode';

export class NetworkConnections implements ContainerNetworking {
  constructor(private readonly options: NetworkConnectionsOptions) {}

  connect(networkReference: string, containerReference: string, request: EndpointRequest = {}): void {
    const container = this.containerOf(containerReference);
    if (!container.state.Running) {
      this.configure(container, networkReference, request);
      return;
    }
    if (container.hostConfig.NetworkMode.startsWith('container:')) throw new InvalidParameterError(SHARED_NAMESPACE_CONFLICT);
    const network = this.options.networks.find(networkReference);
    checkLocal(network);
    this.admit(container, network, request);
    // Kept only once joined: dockerd keeps the settings of a failed connect, the reference does not.
    const settings = settingsFor(request);
    this.join(container, network, settings);
    container.networks[network.name] = settings;
  }

  disconnect(networkReference: string, containerReference: string, force = false): void {
    let container: Container;
    try {
      container = this.containerOf(containerReference);
    } catch (error) {
      // Force is for an endpoint whose container is gone; the reference never leaves one behind.
      if (!(error instanceof NotFoundError) || !force) throw error;
      this.options.networks.find(networkReference);
      throw new NotFoundError(`endpoint ${containerReference} not found`);
    }
    const network = this.findOptional(networkReference);
    if (network) checkLocal(network);
    if (!container.state.Running || (!network && force)) {
      const key = [networkReference, network?.name].find((name) => name !== undefined && Object.hasOwn(container.networks, name));
      if (key === undefined) throw new EngineError(`container ${container.id} is not connected to the network ${networkReference}`);
      delete container.networks[key];
      return;
    }
    if (!network) throw new NotFoundError(`network ${networkReference} not found`);
    if (container.hostConfig.NetworkMode === 'host' && network.driver === 'host') throw new InvalidParameterError(HOST_NETWORK_CONFLICT);
    if (!network.leave(container)) throw new EngineError(`container ${container.id} is not connected to network ${network.name}`);
    delete container.networks[network.name];
    this.options.events.publishEndpoint(network, 'disconnect', container);
  }

  /**
   * The endpoint settings a create gives (NetworkingConfig) take the place of the network mode's, kept
   * for the container's first start, as dockerd's updateContainerNetworkSettings does; settings for
   * `default` (what newer CLIs send below 1.44) are the default network's, `bridge`.
   */
  configureCreated(container: Container, endpoints: Record<string, EndpointRequest>): void {
    if (Object.keys(endpoints).length === 0) return;
    for (const key of Object.keys(container.networks)) delete container.networks[key];
    for (const [key, request] of Object.entries(endpoints)) container.networks[key === 'default' ? 'bridge' : key] = settingsFor(request);
  }

  /** Joins every network of the container's settings as it starts; on a failure it leaves those it joined. */
  attach(container: Container): void {
    try {
      for (const key of Object.keys(container.networks)) {
        const network = this.options.networks.findFor(container.networks, key);
        const settings = container.networks[key] ?? unattachedEndpoint();
        if (key !== network.name) {
          delete container.networks[key];
          container.networks[network.name] = settings;
        }
        this.join(container, network, settings);
      }
    } catch (error) {
      this.release(container);
      throw error;
    }
  }

  /** Leaves every network the container has an endpoint on; its settings keep the network but no addresses. */
  release(container: Container): void {
    for (const network of this.options.networks) {
      if (!network.leave(container)) continue;
      const settings = container.networks[network.name];
      if (settings) Object.assign(settings, detachedFields());
      this.options.events.publishEndpoint(network, 'disconnect', container);
    }
  }

  /** A container that is not running: the settings are recorded for its next start, unless it has them already. */
  private configure(container: Container, networkReference: string, request: EndpointRequest): void {
    if (container.removing) {
      throw new ConflictError(`Container ${container.id} is marked for removal and cannot be connected or disconnected to the network`);
    }
    const network = this.findOptional(networkReference);
    if (!network) {
      container.networks[networkReference] = settingsFor(request);
      return;
    }
    checkLocal(network);
    if (!this.admit(container, network, request)) return;
    const settings = settingsFor(request);
    if (!isPredefinedName(network.name)) settings.Aliases = withShortId(settings.Aliases, container);
    container.networks[network.name] = settings;
  }

  /** dockerd's updateNetworkConfig and updateNetworkSettings: refuses what cannot be; false when the container already has settings for the network. */
  private admit(container: Container, network: Network, request: EndpointRequest): boolean {
    const { IPv4Address, IPv6Address } = request.IPAMConfig ?? {};
    if (isPredefinedName(network.name)) {
      if (IPv4Address || IPv6Address) throw new InvalidParameterError('user specified IP address is supported on user defined networks only');
      if (request.Aliases?.length) throw new InvalidParameterError('network-scoped alias is supported only for containers in user defined networks');
    }
    if ((IPv4Address && !network.hasRequestedSubnet(4)) || (IPv6Address && !network.hasRequestedSubnet(6))) {
      throw new InvalidParameterError('user specified IP address is supported only when connecting to networks with user configured subnets');
    }
    if (container.hostConfig.NetworkMode !== 'host' && network.driver === 'host') throw new InvalidParameterError(HOST_NETWORK_CONFLICT);
    for (const key of Object.keys(container.networks)) {
      const other = this.findOptional(container.networks[key]?.NetworkID || key);
      if (!other) continue;
      if (other.name === network.name) return false;
      if (other.driver === 'host' || network.driver === 'host') throw new InvalidParameterError(SHARED_NAMESPACE_CONFLICT);
      if (other.name === 'none' || network.name === 'none') throw new InvalidParameterError(NO_NETWORK_CONFLICT);
    }
    return true;
  }

  private join(container: Container, network: Network, settings: EndpointSettings): void {
    const endpoint = network.join(container, this.options.ids(), {
      ipv4: settings.IPAMConfig?.IPv4Address || undefined,
      ipv6: settings.IPAMConfig?.IPv6Address || undefined,
      // dockerd gives Config.MacAddress to the endpoint on the network the container was created on
      mac: [network.name, network.id].includes(networkNamesOf(container.hostConfig.NetworkMode)[0] ?? '') ? container.config.MacAddress : undefined,
    });
    if (!isPredefinedName(network.name)) settings.Aliases = withShortId(settings.Aliases, container);
    Object.assign(settings, attachedFields(network, endpoint));
    this.options.events.publishEndpoint(network, 'connect', container);
  }

  private containerOf(reference: string): Container {
    if (reference === '') throw new InvalidParameterError('invalid name or ID supplied: ""');
    return this.options.containers.find(reference);
  }

  /** The network, or undefined where dockerd carries on without one (none, or several of that name). */
  private findOptional(reference: string): Network | undefined {
    try {
      return this.options.networks.find(reference);
    } catch (error) {
      if (error instanceof NotFoundError || error instanceof AmbiguousReferenceError) return undefined;
      throw error;
    }
  }
}

/** The network list a container joins is the swarm's to change on a swarm-scoped network. */
function checkLocal(network: Network): void {
  if (network.scope === 'swarm') throw new ForbiddenError('operation not supported for swarm scoped networks');
}

function settingsFor(request: EndpointRequest): EndpointSettings {
  return { ...unattachedEndpoint(), IPAMConfig: request.IPAMConfig ?? null, Aliases: request.Aliases ?? null, Links: request.Links ?? null, MacAddress: request.MacAddress ?? '' };
}

/** On a user network a container answers to its short id too. */
function withShortId(aliases: string[] | null, container: Container): string[] {
  const shortId = container.id.slice(0, 12);
  return aliases?.includes(shortId) ? aliases : [...(aliases ?? []), shortId];
}

function attachedFields(network: Network, endpoint: NetworkEndpoint): Partial<EndpointSettings> {
  return {
    NetworkID: network.id,
    EndpointID: endpoint.id,
    Gateway: endpoint.ipv4 ? formatIpAddress(endpoint.ipv4.gateway) : '',
    IPAddress: endpoint.ipv4 ? formatIpAddress(endpoint.ipv4.address) : '',
    IPPrefixLen: endpoint.ipv4?.prefixLength ?? 0,
    IPv6Gateway: endpoint.ipv6 ? formatIpAddress(endpoint.ipv6.gateway) : '',
    GlobalIPv6Address: endpoint.ipv6 ? formatIpAddress(endpoint.ipv6.address) : '',
    GlobalIPv6PrefixLen: endpoint.ipv6?.prefixLength ?? 0,
    MacAddress: endpoint.macAddress,
  };
}

/** What a container's settings lose when it leaves: everything of the endpoint but the network id (dockerd's cleanOperationalData). */
function detachedFields(): Partial<EndpointSettings> {
  const { EndpointID, Gateway, IPAddress, IPPrefixLen, IPv6Gateway, GlobalIPv6Address, GlobalIPv6PrefixLen, MacAddress } = unattachedEndpoint();
  return { EndpointID, Gateway, IPAddress, IPPrefixLen, IPv6Gateway, GlobalIPv6Address, GlobalIPv6PrefixLen, MacAddress };
}
