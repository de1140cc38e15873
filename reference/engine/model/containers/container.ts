/**
 * One container: identity, configuration, state, and what it runs with (its filesystem, log,
 * current process, the clients waiting for it to start). Plain data with the few facts derived from
 * it; the store enforces the rules between containers (unique names), the lifecycle the transitions.
 */
import type { LayeredFilesystem } from '../../filesystem/layered-filesystem.ts';
import type { SimulatedProcess, TimerHandle } from '../../process/index.ts';
import type { ContainerConfig } from './container-config.ts';
import type { ContainerLog } from './container-log.ts';
import type { ContainerMount } from './mount-specs.ts';
import type { ProcessAttachment } from './process-attachment.ts';
import { createdState, type ContainerState } from './container-state.ts';
import { networkNamesOf, type HostConfig, type PortMap } from './host-config.ts';
import type { RestartManager } from './restart-manager.ts';

/** The addresses a container asked for on one network. */
export interface EndpointIpamConfig {
  IPv4Address?: string;
  IPv6Address?: string;
  LinkLocalIPs?: string[];
}

/** A container's place on one network: what it asked for, and while it runs the endpoint it has there. */
export interface EndpointSettings {
  IPAMConfig: EndpointIpamConfig | null;
  Links: string[] | null;
  Aliases: string[] | null;
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

/** network name to the container's settings on it */
export type ContainerNetworks = Record<string, EndpointSettings>;

/** Settings on a network the container has not joined yet. */
export function unattachedEndpoint(): EndpointSettings {
  return {
    IPAMConfig: null,
    Links: null,
    Aliases: null,
    NetworkID: '',
    EndpointID: '',
    Gateway: '',
    IPAddress: '',
    IPPrefixLen: 0,
    IPv6Gateway: '',
    GlobalIPv6Address: '',
    GlobalIPv6PrefixLen: 0,
    MacAddress: '',
  };
}

export class Container {
  state: ContainerState = createdState();
  restartCount = 0;
  /** network name to this container's endpoint on it */
  readonly networks: ContainerNetworks;
  /** PID 1 of the current run, while there is one */
  process: SimulatedProcess | undefined;
  /** the policy's bookkeeping for the current series of runs; a new one at each start by the user */
  restartManager: RestartManager | undefined;
  /** the timer of a restart the policy has scheduled */
  pendingRestart: TimerHandle | undefined;
  /** stopped or killed on purpose, which `unless-stopped` respects */
  manuallyStopped = false;
  /** a removal is under way: a second one is refused, and nothing starts it */
  removing = false;
  /** waits for the next time the process ends (or the container goes): each gets the exit code */
  readonly stopWaiters = new Set<(exitCode: number) => void>();
  /** clients attached before the start: the next process is wired to them as it starts */
  readonly waitingAttachments = new Set<ProcessAttachment>();
  /** its binds and volumes, set as it is created */
  mounts: readonly ContainerMount[] = [];
  /** what its links give its processes' environment, set at each start */
  linkEnvironment: string[] = [];
  /** the host ports it publishes while it runs (dockerd's NetworkSettings.Ports) */
  publishedPorts: PortMap | undefined;

  constructor(
    readonly id: string,
    /** with its leading `/` */
    public name: string,
    readonly created: Date,
    /** `sha256:` id of the image it was created from */
    readonly imageId: string,
    readonly config: ContainerConfig,
    /** replaced whole by a start that carries one (API before 1.24) */
    public hostConfig: HostConfig,
    /** its image's layers under a writable layer of its own */
    readonly filesystem: LayeredFilesystem,
    readonly log: ContainerLog,
  ) {
    this.networks = Object.fromEntries(networkNamesOf(hostConfig.NetworkMode).map((network) => [network, unattachedEndpoint()]));
  }

  /** The program the container runs: the entrypoint's first word, else the command's. */
  get path(): string {
    return this.commandLine[0] ?? '';
  }

  get args(): string[] {
    return this.commandLine.slice(1);
  }

  private get commandLine(): string[] {
    return [...(this.config.Entrypoint ?? []), ...(this.config.Cmd ?? [])];
  }
}
