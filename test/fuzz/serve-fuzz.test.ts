/**
 * The reference survives what a hostile client sends (issue 16): seeded requests from the spec
 * inventory against a `shipshape serve` child process. The process never dies, `/_ping` answers
 * within 1 s throughout, no request hangs past its deadline or has its connection closed unanswered,
 * no client mistake gets a 5xx except where the spec's row lists only 500, and the process's memory
 * is back under a bound afterwards.
 *
 * FUZZ_SEED (default fixed, so CI is reproducible), FUZZ_COUNT (default 20 000) and FUZZ_PATH (a
 * request's index: with FUZZ_COUNT=1, replays that one request) replay and scale it; FUZZ_SUMMARY=FILE
 * writes the whole summary (statuses per endpoint, every 5xx class) as JSON. Hangs, 5xx classes and
 * slow pings listed in known-findings.json are reported, not failed (a ratchet: anything else fails).
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatSummary, runFuzz, type FuzzSummary } from './fuzz-run.ts';
import { formatTriage, readKnownFindings, triage, type KnownFinding } from './known-findings.ts';
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

describe('the known findings', () => {
  const example = { index: 1, line: 'POST engine /v1.25/images/load body "…"' };
  const fiveHundred = { endpoint: '2:POST /commit', status: 500, allowed: false, count: 3, example };
  const pings = { count: 2, maxMs: 2500, misses: [{ atSeconds: 1, ms: 1500, afterRequests: 1 }, { atSeconds: 2, ms: 2500, afterRequests: 2 }] };
  const summary = { fiveHundreds: [{ ...fiveHundred, message: 'known words' }, { ...fiveHundred, message: 'other words' }], hangs: [example, { index: 2, line: 'POST engine /v1.25/build' }], pings } as FuzzSummary;
  const listed: KnownFinding[] = [
    { kind: '5xx', endpoint: '2:POST /commit', status: 500, pattern: '^known', reason: 'r', owner: 'o' },
    { kind: 'hang', pattern: '^POST engine /v[\\d.]+/images/load ', reason: 'r', owner: 'o' },
    { kind: 'hang', pattern: '/plugins/', reason: 'r', owner: 'o' },
    { kind: 'slow-ping', maxMs: 2000, reason: 'r', owner: 'o' },
  ];

  it('let listed classes through, fail the others, and name the listed ones not seen', () => {
    const { unlisted, listed: seen, notSeen } = triage(summary, listed);
    expect(unlisted.fiveHundreds.map((entry) => entry.message)).toEqual(['other words']);
    expect(unlisted.hangs.map((hang) => hang.index)).toEqual([2]);
    expect(unlisted.pingMisses.map((miss) => miss.ms)).toEqual([2500]);
    expect(seen.map(({ finding, count }) => [finding.kind, count])).toEqual([['5xx', 3], ['hang', 1], ['slow-ping', 1]]);
    expect(notSeen).toEqual([listed[2]]);
  });

  it('are a valid list', async () => {
    for (const finding of await readKnownFindings(ROOT)) {
      expect(['5xx', 'hang', 'slow-ping']).toContain(finding.kind);
      expect(() => new RegExp(finding.pattern ?? '')).not.toThrow();
      expect(finding.reason && finding.owner, JSON.stringify(finding)).toBeTruthy();
    }
  });
});

describe('shipshape serve under fuzzing', () => {
  const options = fuzzEnvironment(process.env, { count: 20_000, root: ROOT });

  it(`answers ${options.count} seeded requests (seed ${options.seed}) without dying, hanging, 5xx for client mistakes or keeping its memory`, { timeout: options.timeLimitMs + 120_000 }, async () => {
    const summary = await runFuzz({ ...options, log: (line) => console.log(line) });
    const known = triage(summary, await readKnownFindings(ROOT));
    const report = [formatSummary(summary), formatTriage(known)].filter(Boolean).join('\n');
    console.log(report);
    if (process.env.FUZZ_SUMMARY) await writeFile(process.env.FUZZ_SUMMARY, JSON.stringify(summary, null, 1));
    expect.soft(summary.crashes, report).toEqual([]);
    expect.soft(known.unlisted.hangs, report).toEqual([]);
    // a request that was neither stalled nor past a body limit gets an answer, not a closed connection
    expect.soft(summary.closed, report).toEqual([]);
    expect.soft(known.unlisted.pingMisses, report).toEqual([]);
    expect.soft(known.unlisted.fiveHundreds.map((entry) => `${entry.status} ${entry.endpoint}: ${entry.message}`), report).toEqual([]);
    expect.soft(summary.memory.afterMb, report).toBeLessThan(summary.memory.boundMb);
  });
});
