/**
 * assertProperty: the run's seed decides the cases, and a failing case keeps its kind while its
 * message gains the seed and the counterexample, shrunk.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { outcomeOf } from '../../harness/check.ts';
import { assertProperty } from '../../harness/property-check.ts';
import type { RunSession } from '../../harness/session.ts';

const seed = 424242;
const context = { session: { seed } as RunSession };

/** The values a property over `arbitrary` is given, in order. */
async function casesOf(arbitrary: fc.Arbitrary<number>, numRuns: number): Promise<number[]> {
  const seen: number[] = [];
  await assertProperty(context, fc.asyncProperty(arbitrary, async (value) => {
    seen.push(value);
  }), numRuns);
  return seen;
}

describe('assertProperty', () => {
  test('runs the property numRuns times, and the same seed gives the same cases', async () => {
    const first = await casesOf(fc.integer(), 12);
    expect(first).toHaveLength(12);
    expect(await casesOf(fc.integer(), 12)).toEqual(first);
  });

  test('the fixed cases come first, on every seed, and a failing one is reported as found', async () => {
    const seen: number[] = [];
    const failure = await assertProperty(context, fc.asyncProperty(fc.integer({ min: 0, max: 9 }), async (value) => {
      seen.push(value);
      expect(value, 'value').not.toBe(-1);
    }), { numRuns: 6, examples: [[3], [-1]] }, 0).then(() => undefined, (error: unknown) => error as Error);
    expect(seen).toEqual([3, -1]);
    expect(outcomeOf(failure)).toBe('failed');
    expect(failure?.message).toContain('at case 2 of 6');
    expect(failure?.message).toContain('counterexample: [-1]');
  });

  test('a failed assertion stays an assertion failure and names the seed and the counterexample', async () => {
    const failure = await assertProperty(context, fc.asyncProperty(fc.constant({ Memory: 7 }), async (body) => {
      expect(body.Memory, 'Memory').toBe(8);
    }), 5).then(() => undefined, (error: unknown) => error as Error);
    expect(failure).toBeInstanceOf(Error);
    expect(outcomeOf(failure)).toBe('failed');
    expect(failure?.message).toContain(`seed ${seed}`);
    expect(failure?.message).toContain('counterexample: [{"Memory":7}]');
    expect(failure?.message).toContain('at case 1 of 5');
  });

  test('any other error stays the check\'s own error', async () => {
    const failure = await assertProperty(context, fc.asyncProperty(fc.nat(), async () => {
      throw new Error('setup: no image');
    }), 3).then(() => undefined, (error: unknown) => error as Error);
    expect(outcomeOf(failure)).toBe('error');
    expect(failure?.message).toMatch(/^setup: no image\nproperty failed/);
  });

  test('a failing case is shrunk to a smaller one that still fails', async () => {
    const failure = await assertProperty(context, fc.asyncProperty(fc.integer({ min: 0, max: 1_000_000 }), async (tail) => {
      expect(tail, 'tail').toBeLessThan(1000);
    }), 50).then(() => undefined, (error: unknown) => error as Error);
    expect(outcomeOf(failure)).toBe('failed');
    expect(failure?.message).toMatch(/shrunk in [1-9]\d* steps?/);
    expect(failure?.message).toContain('counterexample: [1000]');
  });

  test('with no time to shrink, the first failing case is reported as found', async () => {
    const failure = await assertProperty(context, fc.asyncProperty(fc.integer({ min: 5000, max: 1_000_000 }), async (tail) => {
      expect(tail, 'tail').toBeLessThan(1000);
    }), 50, 0).then(() => undefined, (error: unknown) => error as Error);
    expect(failure?.message).toContain('not shrunk');
  });

  test('a replay cut off by its time budget keeps a counterexample: the first failure, or a smaller one', async () => {
    const failure = await assertProperty(context, fc.asyncProperty(fc.integer({ min: 5000, max: 1_000_000 }), async (tail) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(tail, 'tail').toBeLessThan(1000);
    }), 5, 1).then(() => undefined, (error: unknown) => error as Error);
    expect(outcomeOf(failure)).toBe('failed');
    expect(failure?.message).toMatch(/counterexample: \[\d+\]$/);
  });
});
