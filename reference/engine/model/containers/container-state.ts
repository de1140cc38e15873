/**
 * A container's State object and its transitions. The booleans are the truth (as in dockerd, where a
 * restarting or paused container still counts as Running); Status is derived from them on every
 * transition, so the two never disagree.
 */
import { ZERO_TIME } from '../common/timestamps.ts';

export type HealthStatus = 'starting' | 'healthy' | 'unhealthy';

export interface HealthLogEntry {
  Start: string;
  End: string;
  ExitCode: number;
  Output: string;
}

/** State.Health */
export interface ContainerHealth {
  Status: HealthStatus;
  FailingStreak: number;
  Log: HealthLogEntry[];
}

export type ContainerStatus = 'created' | 'restarting' | 'running' | 'paused' | 'exited' | 'dead';

export const CONTAINER_STATUSES: readonly ContainerStatus[] = ['created', 'restarting', 'running', 'paused', 'exited', 'dead'];

export interface ContainerState {
  Status: ContainerStatus;
  Running: boolean;
  Paused: boolean;
  Restarting: boolean;
  OOMKilled: boolean;
  Dead: boolean;
  Pid: number;
  ExitCode: number;
  Error: string;
  /** RFC 3339; ZERO_TIME until the container first starts */
  StartedAt: string;
  FinishedAt: string;
  /** once a container with a healthcheck has started (dockerd's State.Health) */
  Health?: ContainerHealth;
}

export function createdState(): ContainerState {
  return {
    Status: 'created',
    Running: false,
    Paused: false,
    Restarting: false,
    OOMKilled: false,
    Dead: false,
    Pid: 0,
    ExitCode: 0,
    Error: '',
    StartedAt: ZERO_TIME,
    FinishedAt: ZERO_TIME,
  };
}

/** dockerd's StateString, minus `removing`, which the API's status values do not include. */
function statusOf(state: Omit<ContainerState, 'Status'>): ContainerStatus {
  if (state.Running) {
    if (state.Paused) return 'paused';
    if (state.Restarting) return 'restarting';
    return 'running';
  }
  if (state.Dead) return 'dead';
  if (state.StartedAt === ZERO_TIME) return 'created';
  return 'exited';
}

function withStatus(state: Omit<ContainerState, 'Status'>): ContainerState {
  return { ...state, Status: statusOf(state) };
}

/** The process started; FinishedAt keeps the end of the previous run, as dockerd's does. */
export function runningState(previous: ContainerState, pid: number, startedAt: string): ContainerState {
  return withStatus({ ...previous, Running: true, Paused: false, Restarting: false, Pid: pid, ExitCode: 0, Error: '', StartedAt: startedAt });
}

/** The process ended and nothing will start it again by itself. */
export function exitedState(previous: ContainerState, exitCode: number, finishedAt: string): ContainerState {
  return withStatus({ ...previous, Running: false, Paused: false, Restarting: false, Pid: 0, ExitCode: exitCode, FinishedAt: finishedAt });
}

/** The process ended and the restart policy will start it again: still Running, as dockerd counts it. */
export function restartingState(previous: ContainerState, exitCode: number, finishedAt: string): ContainerState {
  return withStatus({ ...previous, Running: true, Paused: false, Restarting: true, Pid: 0, ExitCode: exitCode, FinishedAt: finishedAt });
}

/** A pending restart was called off: the container stays down with the exit code it had. */
export function restartCancelledState(previous: ContainerState): ContainerState {
  return withStatus({ ...previous, Running: false, Restarting: false });
}

/** The process could not be started: the state records why and the code (127, 126, …), and nothing ran. */
export function startFailedState(previous: ContainerState, exitCode: number, error: string): ContainerState {
  return withStatus({ ...previous, Running: false, Paused: false, Restarting: false, Pid: 0, ExitCode: exitCode, Error: error });
}

export function pausedState(previous: ContainerState, paused: boolean): ContainerState {
  return withStatus({ ...previous, Paused: paused });
}
