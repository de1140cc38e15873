/**
 * Where simulated processes get their time from. Real by default; tests and a test-controlled
 * reference pass a ManualScheduler so that `sleep 300` takes no real time.
 */

export type TimerHandle = unknown;

export interface Scheduler {
  /** milliseconds since the epoch */
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/**
 * Looks the globals up on each call, so vitest's fake timers apply to it too. Its timers do not keep
 * Node running: a `sleep 300` left in a fake daemon must not hold up the exit of a test run.
 */
export const realScheduler: Scheduler = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const timer = globalThis.setTimeout(callback, ms);
    (timer as { unref?: () => void }).unref?.();
    return timer;
  },
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

// Captured before any test can install fake timers: yielding must let real I/O and promise chains
// run, whatever clock the processes are on.
const realSetImmediate = globalThis.setImmediate;

/** Lets the event loop run once: pending promise chains settle and other work gets a turn. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => realSetImmediate(resolve));
}

interface ManualTimer {
  due: number;
  order: number;
  callback: () => void;
}

/** A clock that only moves when told to. */
export class ManualScheduler implements Scheduler {
  private current: number;
  private readonly timers = new Set<ManualTimer>();
  private created = 0;

  constructor(start: Date | number = Date.parse('2024-03-01T12:00:00.000Z')) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const timer: ManualTimer = { due: this.current + Math.max(0, ms), order: this.created++, callback };
    this.timers.add(timer);
    return timer;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle as ManualTimer);
  }

  /** timers still waiting */
  get pending(): number {
    return this.timers.size;
  }

  /**
   * Moves the clock forward, firing due timers in order. Between timers it lets promise chains
   * settle, so a timer that a fired one leads to (the next command's `sleep`) fires in the same call
   * when it is due.
   */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await yieldToEventLoop();
      const next = this.nextDue(target);
      if (next === undefined) break;
      this.timers.delete(next);
      this.current = Math.max(this.current, next.due);
      next.callback();
    }
    this.current = target;
    await yieldToEventLoop();
  }

  private nextDue(limit: number): ManualTimer | undefined {
    let best: ManualTimer | undefined;
    for (const timer of this.timers) {
      if (timer.due > limit) continue;
      if (best === undefined || timer.due < best.due || (timer.due === best.due && timer.order < best.order)) best = timer;
    }
    return best;
  }
}
