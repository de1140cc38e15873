/**
 * No result vanishes (issue 15 §5): a check whose worker died, or whose suite file did not load, or
 * whose (version, file) vitest never ran, gets an `error` that says why, from the ledger of what the
 * run owed. The suite files here really lose their results under vitest.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { createVitest } from 'vitest/node';
import { ResultCollector, type OwedResults } from '../../harness/run/result-collector.ts';
import type { VersionResult } from '../../harness/report/types.ts';
import { DOES_NOT_LOAD, WORKER_LOST } from './lost-results/checks.ts';

const SUITES = fileURLToPath(new URL('./lost-results/', import.meta.url));

function owed(version: string, file: string, checks: OwedResults['checks']): OwedResults {
  return { version, file, moduleId: path.join(SUITES, file), checks };
}

/** The suite files here at 1.24 through vitest, into a collector. */
async function collectLostRun(): Promise<ResultCollector> {
  const collector = new ResultCollector();
  const vitest = await createVitest(
    'test',
    { root: SUITES, config: false, name: 'v1.24', include: ['*.suite.ts'], watch: false, reporters: [collector] },
    { logLevel: 'silent' },
  );
  const exitCode = process.exitCode;
  try {
    await vitest.start();
  } finally {
    await vitest.close();
    // vitest marks the process failed for the run it hosted; this test's outcome is its own.
    process.exitCode = exitCode;
  }
  return collector;
}

function resultsOf(collector: ResultCollector): Record<string, VersionResult> {
  return Object.fromEntries(collector.results().flatMap((check) => Object.entries(check.results).map(([version, result]) => [`${check.id} ${version}`, result])));
}

describe('ResultCollector.recordMissing', { timeout: 120_000 }, () => {
  test('a worker that died, a file that did not load and a version never run each give an error with the reason', async () => {
    const collector = await collectLostRun();
    // What vitest itself reported: nothing of either file.
    expect(resultsOf(collector)).toEqual({});

    collector.recordMissing([owed('1.24', 'worker-lost.suite.ts', WORKER_LOST), owed('1.24', 'does-not-load.suite.ts', DOES_NOT_LOAD), owed('1.25', 'worker-lost.suite.ts', WORKER_LOST.slice(0, 1))]);
    const stopped = /^no result: worker-lost\.suite\.ts stopped at 1\.24 before this check reported: its worker exited or the run was cut short \(the run's first unhandled error: .+\)$/;
    expect(resultsOf(collector)).toEqual({
      'lost.load.first 1.24': { status: 'error', message: 'no result: does-not-load.suite.ts failed at 1.24: this suite file does not load' },
      'lost.load.second 1.24': { status: 'error', message: 'no result: does-not-load.suite.ts failed at 1.24: this suite file does not load' },
      'lost.worker.after 1.24': { status: 'error', message: expect.stringMatching(stopped) },
      'lost.worker.kills 1.25': { status: 'error', message: expect.stringMatching(/^no result: vitest did not run worker-lost\.suite\.ts at 1\.25 /) },
      'lost.worker.kills 1.24': { status: 'error', message: expect.stringMatching(stopped) },
    });
    expect(collector.results().map((check) => check.title)).toEqual(['the rule of lost.load.first', 'the rule of lost.load.second', 'the rule of lost.worker.after', 'the rule of lost.worker.kills']);
  });
});
