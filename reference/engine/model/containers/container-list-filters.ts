/**
 * The `filters` of a container listing as dockerd applies them (daemon/list.go): every filter given
 * must hold, and within one filter any of its values may. What a container is matched against —
 * its exit code, the mount points it has, the networks it is on — is read here.
 */
import type { Container } from './container.ts';
import { CONTAINER_STATUSES, type ContainerStatus } from './container-state.ts';
import { InvalidParameterError } from '../common/errors.ts';
import { matchesLabels } from '../common/label-match.ts';

export interface ContainerListFilters {
  /** patterns (regular expressions, as dockerd reads them) one of which the id must match */
  id?: string[];
  /** patterns one of which the name (with its `/`) must match */
  name?: string[];
  /** `key` or `key=value`, all of which must hold */
  label?: string[];
  /** states one of which the container must be in; asking for a state lists non-running containers too */
  status?: string[];
  /** exit codes (integers) one of which a container that ran and stopped must have ended with */
  exited?: string[];
  /** images (name, id or id prefix) one of which the container must have been created from */
  ancestor?: string[];
  /** a container (id or name): only those created before it */
  before?: string[];
  /** a container (id or name): only those created after it */
  since?: string[];
  /** volume names, bind sources or mount destinations one of which the container must mount */
  volume?: string[];
  /** network names or id prefixes one of which the container must be on */
  network?: string[];
  /** health statuses (`starting`, `healthy`, `unhealthy`, or `none` for no healthcheck) one of which the container must have */
  health?: string[];
}

const HEALTH_VALUES = ['starting', 'healthy', 'unhealthy', 'none'];

export function checkedHealth(values: string[] | undefined): string[] | undefined {
  for (const value of values ?? []) if (!HEALTH_VALUES.includes(value)) throw new InvalidParameterError(`Unrecognised filter value for health: ${value}`);
  return values;
}

/** dockerd's health filter: a container that never ran its healthcheck (or has none) counts as `none`. */
export function matchesHealth(values: string[] | undefined, container: Container): boolean {
  return values === undefined || values.includes(container.state.Health?.Status ?? 'none');
}

/** The status filter knows one state more than the State object shows: a stopped container being removed. */
type ListedStatus = ContainerStatus | 'removing';
const LISTED_STATUSES: readonly ListedStatus[] = [...CONTAINER_STATUSES, 'removing'];

export function checkedStatuses(values: string[] | undefined): ListedStatus[] | undefined {
  return values?.map((value) => {
    const status = LISTED_STATUSES.find((known) => known === value);
    if (!status) throw new InvalidParameterError(`Unrecognised filter value for status: ${value}`);
    return status;
  });
}

/** dockerd's StateString: a running (or paused, restarting) container shows that even while it is being removed. */
export function matchesStatus(statuses: ListedStatus[] | undefined, container: Container): boolean {
  if (statuses === undefined) return true;
  return statuses.includes(container.removing && !container.state.Running ? 'removing' : container.state.Status);
}

export function checkedExitCodes(values: string[] | undefined): number[] | undefined {
  return values?.map((value) => {
    if (!/^[+-]?\d+$/.test(value)) throw new InvalidParameterError(`invalid filter 'exited=${value}': not an integer`);
    return Number(value);
  });
}

export function matchesLabelFilter(labels: string[] | undefined, container: Container): boolean {
  return labels === undefined || matchesLabels(container.config.Labels, labels);
}

/** Only a container that ran and is down has an exit code to match. */
export function matchesExitCode(codes: number[] | undefined, container: Container): boolean {
  if (codes === undefined) return true;
  const ran = container.state.Status === 'exited' || container.state.Status === 'dead';
  return ran && codes.includes(container.state.ExitCode);
}

/** By a volume's name, a bind's host path, or the destination of either. */
export function matchesVolume(volumes: string[] | undefined, container: Container): boolean {
  if (volumes === undefined) return true;
  return container.mounts.some((mount) => volumes.includes(mount.destination) || volumes.includes(mount.volume?.name ?? mount.source));
}

/** By the network's name, or a prefix of the id of the network the container is attached to. */
export function matchesNetwork(networks: string[] | undefined, container: Container): boolean {
  if (networks === undefined) return true;
  return networks.some(
    (wanted) =>
      Object.hasOwn(container.networks, wanted) ||
      Object.values(container.networks).some((endpoint) => endpoint.NetworkID !== '' && endpoint.NetworkID.startsWith(wanted)),
  );
}
