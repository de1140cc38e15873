/**
 * A container's State object and the human-readable status the list shows. A container starts
 * `created`; the state machine that moves it on comes with a later issue.
 */
import { ZERO_TIME } from './timestamps.ts';

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
