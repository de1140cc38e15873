/**
 * The fuzz run's options from the environment, shared by the CI test and the bench:
 * FUZZ_SEED, FUZZ_COUNT, FUZZ_PATH (replay from a request's index), FUZZ_CONCURRENCY,
 * FUZZ_DEADLINE_MS, FUZZ_TIME_LIMIT_S, FUZZ_RSS_MB.
 */
import type { FuzzOptions } from './fuzz-run.ts';

/** The default seed: fixed, so CI's run is the same run every time and a failure there replays. */
export const DEFAULT_SEED = 16_2026;

function integer(environment: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = environment[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error(`${name}: expected an integer, got ${JSON.stringify(text)}`);
  return value;
}

export function fuzzEnvironment(environment: NodeJS.ProcessEnv, defaults: { count: number; root: string }): FuzzOptions {
  const path = environment.FUZZ_PATH;
  return {
    seed: integer(environment, 'FUZZ_SEED', DEFAULT_SEED),
    count: integer(environment, 'FUZZ_COUNT', defaults.count),
    ...(path !== undefined && path !== '' && { path }),
    concurrency: integer(environment, 'FUZZ_CONCURRENCY', 8),
    deadlineMs: integer(environment, 'FUZZ_DEADLINE_MS', 10_000),
    // a run that gets this slow has found something; CI's run takes well under a minute
    timeLimitMs: integer(environment, 'FUZZ_TIME_LIMIT_S', Math.max(120, defaults.count / 100)) * 1000,
    rssBoundMb: integer(environment, 'FUZZ_RSS_MB', 400),
    root: defaults.root,
  };
}
