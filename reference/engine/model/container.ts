/**
 * One container: identity, configuration, state. Plain data with the few facts derived from it;
 * the store enforces the rules between containers (unique names), a later state machine the
 * transitions.
 */
import type { ContainerConfig } from './container-config.ts';
import { createdState, type ContainerState } from './container-state.ts';
import { networkNamesOf, type HostConfig } from './host-config.ts';

/** A container's place on one network; empty until it starts (addresses come with networking). */
export interface EndpointSettings {
  IPAMConfig: Record<string, unknown> | null;
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

function unattachedEndpoint(): EndpointSettings {
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
  readonly networks: Record<string, EndpointSettings>;

  constructor(
    readonly id: string,
    /** with its leading `/` */
    public name: string,
    readonly created: Date,
    /** `sha256:` id of the image it was created from */
    readonly imageId: string,
    readonly config: ContainerConfig,
    readonly hostConfig: HostConfig,
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
