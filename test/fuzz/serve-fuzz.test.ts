/**
 * The reference survives what a hostile client sends (issue 16): seeded requests from the spec
 * inventory against a `shipshape serve` child process. The process never dies, `/_ping` answers
 * within 1 s throughout, no request hangs past its deadline, no client mistake gets a 5xx except
 * where the spec's row lists only 500, and the process's memory is back under a bound afterwards.
 *
 * FUZZ_SEED (default fixed, so CI is reproducible), FUZZ_COUNT (default 20 000) and FUZZ_PATH (a
 * request's index: with FUZZ_COUNT=1, replays that one request) replay and scale it; FUZZ_SUMMARY=FILE
 * writes the whole summary (statuses per endpoint, every 5xx class) as JSON.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatSummary, runFuzz } from './fuzz-run.ts';
import { listsOnly500 } from './spec-endpoints.ts';
import { fuzzEnvironment } from './fuzz-environment.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the spec rows a 500 may answer a client mistake on', () => {
  it('are the rows that list 500 and no 4xx', () => {
    expect(listsOnly500({ statuses: [200, 500] })).toBe(true);
    expect(listsOnly500({ statuses: [201, 404, 500] })).toBe(false);
    expect(listsOnly500({ statuses: [200, 400, 500] })).toBe(false);
    // a row that shows no status leaves the answer to a client mistake a 4xx
    expect(listsOnly500({ statuses: [] })).toBe(false);
  });
});

describe('shipshape serve under fuzzing', () => {
  const options = fuzzEnvironment(process.env, { count: 20_000, root: ROOT });

  it(`answers ${options.count} seeded requests (seed ${options.seed}) without dying, hanging, 5xx for client mistakes or keeping its memory`, { timeout: options.timeLimitMs + 120_000 }, async () => {
    const summary = await runFuzz({ ...options, log: (line) => console.log(line) });
    const report = formatSummary(summary);
    console.log(report);
    if (process.env.FUZZ_SUMMARY) await writeFile(process.env.FUZZ_SUMMARY, JSON.stringify(summary, null, 1));
    expect.soft(summary.crashes, report).toEqual([]);
    expect.soft(summary.hangs, report).toEqual([]);
    expect.soft(summary.pings.misses, report).toEqual([]);
    expect.soft(summary.fiveHundreds.filter((entry) => !entry.allowed).map((entry) => `${entry.status} ${entry.endpoint}: ${entry.message}`), report).toEqual([]);
    expect.soft(summary.memory.afterMb, report).toBeLessThan(summary.memory.boundMb);
  });
});
