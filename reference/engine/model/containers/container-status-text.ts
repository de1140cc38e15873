/**
 * The human-readable Status of a container list item, worded as dockerd words it
 * ("Up 5 seconds", "Exited (0) 2 minutes ago", "Created").
 */
import type { ContainerState } from './container-state.ts';
import { ZERO_TIME } from '../common/timestamps.ts';

export function statusText(state: ContainerState, now: Date): string {
  const since = (timestamp: string) => humanDuration(now.getTime() - new Date(timestamp).getTime());
  if (state.Running) {
    if (state.Paused) return `Up ${since(state.StartedAt)} (Paused)`;
    if (state.Restarting) return `Restarting (${state.ExitCode}) ${since(state.FinishedAt)} ago`;
    return `Up ${since(state.StartedAt)}${healthText(state)}`;
  }
  if (state.Dead) return 'Dead';
  if (state.StartedAt === ZERO_TIME) return 'Created';
  if (state.FinishedAt === ZERO_TIME) return '';
  return `Exited (${state.ExitCode}) ${since(state.FinishedAt)} ago`;
}

/** dockerd's suffix for a container with a healthcheck: ` (health: starting)`, ` (healthy)`, ` (unhealthy)`. */
function healthText(state: ContainerState): string {
  const status = state.Health?.Status;
  if (status === undefined) return '';
  return status === 'starting' ? ' (health: starting)' : ` (${status})`;
}

/** go-units' HumanDuration, whose rounding the docker CLI output is known by. */
export function humanDuration(milliseconds: number): string {
  const seconds = Math.trunc(milliseconds / 1000);
  if (seconds < 1) return 'Less than a second';
  if (seconds === 1) return '1 second';
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes === 1) return 'About a minute';
  if (minutes < 46) return `${minutes} minutes`;
  const hours = Math.trunc(milliseconds / 3_600_000 + 0.5);
  if (hours === 1) return 'About an hour';
  if (hours < 48) return `${hours} hours`;
  if (hours < 24 * 7 * 2) return `${Math.trunc(hours / 24)} days`;
  if (hours < 24 * 30 * 2) return `${Math.trunc(hours / 24 / 7)} weeks`;
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24 / 30)} months`;
  return `${Math.trunc(milliseconds / 3_600_000 / 24 / 365)} years`;
}
