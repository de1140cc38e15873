/**
 * The restart policy of one container run, decided the way dockerd's restartmanager decides it: a
 * delay that starts at 100 ms and doubles on each restart (spec/1 §2.3), back to 100 ms after a run
 * of 10 s or more, never above a minute; `on-failure` counts its retries; a cancelled manager (the
 * container was stopped or killed on purpose) restarts nothing any more.
 */

export interface RestartPolicy {
  /** '' or `no` (never), `always`, `on-failure`, `unless-stopped`; anything else is refused at create and update */
  Name: string;
  MaximumRetryCount: number;
}

export const RESTART_POLICY_NAMES: readonly string[] = ['', 'no', 'always', 'on-failure', 'unless-stopped'];

export const FIRST_RESTART_DELAY_MS = 100;
export const MAX_RESTART_DELAY_MS = 60_000;
/** a run this long proves the container healthy again: the delay starts over */
export const STEADY_RUN_MS = 10_000;

export function isNoRestartPolicy(policy: RestartPolicy): boolean {
  return policy.Name === '' || policy.Name === 'no';
}

export class RestartManager {
  private delayMs = 0;
  private cancelled = false;

  constructor(
    private policy: RestartPolicy,
    /** restarts so far (the container's RestartCount), which on-failure's maximum counts against */
    private restarts: number,
  ) {}

  setPolicy(policy: RestartPolicy): void {
    this.policy = policy;
  }

  /** No restart from now on, whatever the policy. */
  cancel(): void {
    this.cancelled = true;
  }

  get isCancelled(): boolean {
    return this.cancelled;
  }

  /**
   * After a run that lasted `ranMs` and ended with `exitCode`: the delay before starting it again, or
   * undefined to leave it stopped.
   */
  nextRestartDelay(exitCode: number, manuallyStopped: boolean, ranMs: number): number | undefined {
    if (isNoRestartPolicy(this.policy) || this.cancelled) return undefined;
    if (ranMs >= STEADY_RUN_MS) this.delayMs = 0;
    this.delayMs = this.delayMs === 0 ? FIRST_RESTART_DELAY_MS : Math.min(this.delayMs * 2, MAX_RESTART_DELAY_MS);
    if (!this.wantsRestart(exitCode, manuallyStopped)) return undefined;
    this.restarts++;
    return this.delayMs;
  }

  private wantsRestart(exitCode: number, manuallyStopped: boolean): boolean {
    switch (this.policy.Name) {
      case 'always':
        return true;
      case 'unless-stopped':
        return !manuallyStopped;
      case 'on-failure': {
        const maximum = this.policy.MaximumRetryCount;
        return exitCode !== 0 && (maximum === 0 || this.restarts < maximum);
      }
      default:
        return false;
    }
  }
}
