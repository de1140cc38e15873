/**
 * Property checks over the wire: fast-check runs with the run's seed, which the report records, so
 * `--seed` replays the same cases. A failing case keeps its kind (an assertion about the target fails
 * the check, anything else is the check's error) and its message gains the seed, the path and the
 * counterexample, as JSON: what a check over the wire generates is request data.
 */
import fc from 'fast-check';
import type { CheckContext } from './check.ts';

/** How long a failing property may spend shrinking its counterexample: every case costs requests, and a check has a deadline. */
export const DEFAULT_SHRINK_MS = 8_000;

/**
 * How many random cases a property tries, and the fixed cases it tries first. A fixed case is for a
 * deviation the random ones meet only by luck (or not under a busy target): with it, a daemon that
 * deviates fails on every seed, so its expected failure never turns into an unexpected pass.
 */
export type PropertyRuns<Ts> = number | { numRuns: number; examples: Ts[] };

/**
 * Runs `property` from the session's seed: its fixed cases, then `numRuns` random ones. The first
 * failing case is then shrunk from its path for at most `shrinkMs` (the smallest failing case found by
 * then is reported).
 */
export async function assertProperty<Ts extends [unknown, ...unknown[]]>(
  { session }: Pick<CheckContext, 'session'>,
  property: fc.IAsyncProperty<Ts>,
  runs: PropertyRuns<Ts>,
  shrinkMs = DEFAULT_SHRINK_MS,
): Promise<void> {
  const { numRuns, examples } = typeof runs === 'number' ? { numRuns: runs, examples: [] } : runs;
  const found = await fc.check(property, { seed: session.seed, numRuns, examples, endOnFailure: true });
  if (!found.failed) return;
  const shrunk = shrinkMs > 0 ? await fc.check(property, { seed: found.seed, path: found.counterexamplePath ?? undefined, numRuns, examples, interruptAfterTimeLimit: shrinkMs }) : found;
  // A case that passes when replayed (a race on the target), or a replay cut off before its first case
  // ended (no counterexample then), keeps the first failure.
  const details = shrunk.failed && shrunk.counterexample !== null ? shrunk : found;
  const failure = details.errorInstance instanceof Error ? details.errorInstance : new Error(String(details.errorInstance));
  const shrinking = details === found ? 'not shrunk' : `shrunk in ${details.numShrinks} step${details.numShrinks === 1 ? '' : 's'}${details.interrupted ? `, stopped after ${shrinkMs} ms` : ''}`;
  failure.message = `${failure.message}\nproperty failed at case ${found.numRuns} of ${numRuns} (seed ${found.seed}, path ${details.counterexamplePath}: --seed ${found.seed} replays it; ${shrinking}); counterexample: ${JSON.stringify(details.counterexample)}`;
  throw failure;
}
