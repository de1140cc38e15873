/**
 * Requests that are well formed but come at the wrong time: the object exists and is in a state the
 * operation does not apply to. They are not client mistakes in the sense of the fuzz (a malformed
 * request), and where the endpoint's row lists neither 400 nor 409 the spec's only failure for them
 * is 500 ("server error", spec/1 §7.2), which dockerd 1.13 answers. Each entry names its endpoint and
 * the words of the answer; anything else on these endpoints is still a finding.
 */
import { compareVersions, CURRENT_VERSION } from '../../protocol/versions.ts';

export interface StateConflict {
  endpoint: string;
  message: RegExp;
  /** the conflict is the spec's 500 only before this version (a version rule gave it a 4xx) */
  before?: string;
}

export const STATE_CONFLICTS: readonly StateConflict[] = [
  // rows 204, 404, 500
  { endpoint: '1:POST /containers/{id_or_name}/unpause', message: /is not paused/ },
  { endpoint: '1:POST /containers/{id_or_name}/pause', message: /is (already paused|not running|restarting)/ },
  { endpoint: '1:POST /containers/{id_or_name}/kill', message: /is not running/ },
  // rows 200, 403, 404, 500: dockerd 20.10 answers this 500 too, in both its wordings ("to the network" for a
  // network it cannot find, "to network" for one it can: daemon/container_operations.go)
  { endpoint: '2:POST /networks/{id}/disconnect', message: /is not connected to (the )?network/ },
  // spec/1 §9.4: exec's 409 for a stopped container comes at 1.21
  { endpoint: '1:POST /containers/{id_or_name}/exec', message: /is not running/, before: '1.21' },
  // row 201, 404: an exec not started in 10 s is dockerd's 500 (daemon/resize.go), after the wait the fuzz counts as blocked
  { endpoint: '1:POST /exec/{id}/resize', message: /^timeout waiting for exec session ready$/ },
  // row 200, 404, 500: a version that is not the service's current one (swarmkit's optimistic update; dockerd's 500)
  { endpoint: '2:POST /services/{id_or_name}/update', message: /update out of sequence/ },
  // rows 200, 404, 500
  { endpoint: '1:POST /containers/{id_or_name}/resize', message: /is not running|cannot resize/ },
  { endpoint: '1:GET /containers/{id_or_name}/top', message: /is not running/ },
  // rows 204, 304, 404, 500 and 204, 404, 500: a stopped container connected to a network with an address it
  // cannot have (dockerd 20.10 takes the connect, 200, and fails the next start or restart with this 500: seen
  // with IPv4Address "NaN", "Invalid IPv4 address: NaN")
  { endpoint: '1:POST /containers/{id_or_name}/start', message: /Invalid IPv[46] address|does not belong to any of this network's subnets/ },
  { endpoint: '1:POST /containers/{id_or_name}/restart', message: /Invalid IPv[46] address|does not belong to any of this network's subnets/ },
];

/** The request's API version from its path prefix (`/v1.20/…`), the current one without a prefix. */
export function versionOf(path: string): string {
  return /^\/v(\d+\.\d+)\//.exec(path)?.[1] ?? CURRENT_VERSION;
}

export function isStateConflict(endpoint: string, message: string, version: string): boolean {
  return STATE_CONFLICTS.some((conflict) => conflict.endpoint === endpoint && conflict.message.test(message) && (conflict.before === undefined || compareVersions(version, conflict.before) < 0));
}
