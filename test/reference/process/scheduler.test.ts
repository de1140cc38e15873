import { describe, expect, test } from 'vitest';
import { Freezer } from '../../../reference/engine/process/freezer.ts';
import { ManualScheduler } from '../../../reference/engine/process/scheduler.ts';

describe('ManualScheduler', () => {
  test('fires due timers in deadline order, then creation order; cleared ones never', async () => {
    const clock = new ManualScheduler(1000);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('b@20'), 20);
    clock.setTimeout(() => fired.push('a@10'), 10);
    clock.setTimeout(() => fired.push('c@20'), 20);
    const cleared = clock.setTimeout(() => fired.push('never'), 5);
    clock.clearTimeout(cleared);
    await clock.advance(15);
    expect(fired).toEqual(['a@10']);
    expect(clock.now()).toBe(1015);
    await clock.advance(5);
    expect(fired).toEqual(['a@10', 'b@20', 'c@20']);
    expect(clock.pending).toBe(0);
  });

  test('a timer set by a fired one fires in the same advance when due, with the time it fired at', async () => {
    const clock = new ManualScheduler(0);
    const seen: number[] = [];
    clock.setTimeout(() => {
      seen.push(clock.now());
      void Promise.resolve().then(() => clock.setTimeout(() => seen.push(clock.now()), 30));
    }, 10);
    await clock.advance(100);
    expect(seen).toEqual([10, 40]);
    expect(clock.now()).toBe(100);
  });
});

describe('Freezer', () => {
  test('holds actions while frozen and runs them in order at thaw', async () => {
    const freezer = new Freezer();
    const done: number[] = [];
    freezer.run(() => done.push(1));
    freezer.freeze();
    freezer.run(() => done.push(2));
    freezer.run(() => done.push(3));
    let thawed = false;
    void freezer.whenThawed().then(() => (thawed = true));
    await Promise.resolve();
    expect(done).toEqual([1]);
    expect(thawed).toBe(false);
    freezer.thaw();
    expect(done).toEqual([1, 2, 3]);
    await Promise.resolve();
    expect(thawed).toBe(true);
  });

  test('an action that freezes again keeps the rest held', () => {
    const freezer = new Freezer();
    const done: number[] = [];
    freezer.freeze();
    freezer.run(() => {
      done.push(1);
      freezer.freeze();
    });
    freezer.run(() => done.push(2));
    freezer.thaw();
    expect(done).toEqual([1]);
    freezer.thaw();
    expect(done).toEqual([1, 2]);
  });
});
