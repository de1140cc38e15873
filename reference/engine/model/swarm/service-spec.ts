/**
 * A service's spec as the model keeps it (spec/2 §2.7), in Docker's field names: what the create
 * and update bodies give, with the defaults dockerd fills in (one replica, restart on any exit after
 * 5 s). Parts the reference stores and shows but does not act on (resources, placement, networks,
 * endpoint, update config, mounts, log driver, healthcheck, DNS) are kept as given; networks are
 * kept by id, secrets are checked against the swarm's.
 */

export type RestartCondition = 'none' | 'on-failure' | 'any';

export const RESTART_CONDITIONS: readonly RestartCondition[] = ['none', 'on-failure', 'any'];

/** swarmkit's defaults when the spec gives none. */
export const DEFAULT_RESTART_CONDITION: RestartCondition = 'any';
export const DEFAULT_RESTART_DELAY_NS = 5_000_000_000;
/** dockerd's stop timeout for a task's container. */
export const DEFAULT_STOP_GRACE_PERIOD_NS = 10_000_000_000;

/** JSON the reference stores as given and shows back. */
export type OpaqueSpec = Record<string, unknown>;

export interface ServiceContainerSpec {
  Image: string;
  /** the container's entrypoint */
  Command?: string[];
  /** the container's command */
  Args?: string[];
  Env?: string[];
  Dir?: string;
  User?: string;
  Labels?: Record<string, string>;
  /** nanoseconds between the stop signal and the kill */
  StopGracePeriod?: number;
  Mounts?: unknown[];
  Hostname?: string;
  Groups?: string[];
  TTY?: boolean;
  /** `IP host…` lines for /etc/hosts */
  Hosts?: string[];
  Healthcheck?: OpaqueSpec;
  DNSConfig?: OpaqueSpec;
  Secrets?: SecretReference[];
}

/** A secret a task's container gets as a file under /run/secrets. */
export interface SecretReference {
  SecretID: string;
  SecretName: string;
  File?: { Name: string; UID?: string; GID?: string; Mode?: number };
}

/** A network a task attaches to: `Target` is the network's id once the service is made. */
export interface NetworkAttachment {
  Target: string;
  Aliases?: string[];
}

export interface ServiceRestartPolicy {
  Condition?: RestartCondition;
  /** nanoseconds before a replacement task starts */
  Delay?: number;
  MaxAttempts?: number;
  Window?: number;
}

export interface TaskSpec {
  ContainerSpec: ServiceContainerSpec;
  RestartPolicy?: ServiceRestartPolicy;
  Resources?: OpaqueSpec;
  Placement?: OpaqueSpec;
  LogDriver?: OpaqueSpec;
  Networks?: NetworkAttachment[];
  /** a counter whose change alone replaces the tasks */
  ForceUpdate?: number;
}

export type ServiceMode = { Replicated: { Replicas: number } } | { Global: Record<string, never> };

export interface ServiceSpec {
  Name: string;
  Labels: Record<string, string>;
  TaskTemplate: TaskSpec;
  Mode: ServiceMode;
  UpdateConfig?: OpaqueSpec;
  /** before 1.25's TaskTemplate.Networks */
  Networks?: NetworkAttachment[];
  EndpointSpec?: OpaqueSpec;
}

export function restartConditionOf(template: TaskSpec): RestartCondition {
  return template.RestartPolicy?.Condition ?? DEFAULT_RESTART_CONDITION;
}

export function restartDelayMsOf(template: TaskSpec): number {
  return (template.RestartPolicy?.Delay ?? DEFAULT_RESTART_DELAY_NS) / 1e6;
}

export function stopGracePeriodSOf(template: TaskSpec): number {
  return (template.ContainerSpec.StopGracePeriod ?? DEFAULT_STOP_GRACE_PERIOD_NS) / 1e9;
}

/** How many tasks the mode asks of the one node: the replicas, or one for a global service. */
export function wantedSlots(mode: ServiceMode): number {
  return 'Replicated' in mode ? mode.Replicated.Replicas : 1;
}

export function isGlobal(mode: ServiceMode): boolean {
  return 'Global' in mode;
}
