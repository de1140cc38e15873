/**
 * The cgroup freezer of one container (pause/unpause). While frozen, nothing in the container makes
 * progress: timers that come due, stdin that arrives, signals other than SIGKILL and output are held
 * and handed over in order at thaw. Timers keep their deadlines, as the kernel's do: a `sleep 10`
 * frozen from second 2 to second 5 still ends at second 10, and one whose deadline passed while
 * frozen ends right at thaw.
 */
export class Freezer {
  private frozen = false;
  private held: Array<() => void> = [];
  private thawWaiters: Array<() => void> = [];

  get isFrozen(): boolean {
    return this.frozen;
  }

  freeze(): void {
    this.frozen = true;
  }

  thaw(): void {
    if (!this.frozen) return;
    this.frozen = false;
    const held = this.held;
    this.held = [];
    for (const action of held) {
      // an action may freeze again (an output listener pausing the container): keep the rest held
      if (this.frozen) this.held.push(action);
      else action();
    }
    const waiters = this.thawWaiters;
    this.thawWaiters = [];
    for (const wake of waiters) wake();
  }

  /** Runs `action` now, or at thaw when frozen. */
  run(action: () => void): void {
    if (this.frozen) this.held.push(action);
    else action();
  }

  /** Resolves at once when not frozen. */
  whenThawed(): Promise<void> {
    if (!this.frozen) return Promise.resolve();
    return new Promise((resolve) => this.thawWaiters.push(resolve));
  }
}
