/**
 * Property checks over the wire: fast-check runs with the run's seed, which the report records, so
 * `--seed` replays the same cases. A failing case keeps its kind (an assertion about the target fails
 * the check, anything else is the check's error) and its message gains the seed and the counterexample,
 * as JSON: what a check over the wire generates is request data.
 */
import fc from 'fast-check';
import type { CheckContext } from './check.ts';

/**
 * Runs `property` `numRuns` times from the session's seed. It stops at the first failing case without
 * shrinking: every case costs requests to the target, and a check has a deadline.
 */
export async function assertProperty<Ts extends [unknown, ...unknown[]]>(
  { session }: Pick<CheckContext, 'session'>,
  property: fc.IAsyncProperty<Ts>,
  numRuns: number,
): Promise<void> {
  const details = await fc.check(property, { seed: session.seed, numRuns, endOnFailure: true });
  if (!details.failed) return;
  const failure = details.errorInstance instanceof Error ? details.errorInstance : new Error(String(details.errorInstance));
  failure.message = `${failure.message}\nproperty failed at case ${details.numRuns} of ${numRuns} (seed ${details.seed}, path ${details.counterexamplePath}: --seed ${details.seed} replays it); counterexample: ${JSON.stringify(details.counterexample)}`;
  throw failure;
}
