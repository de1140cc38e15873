/** `shipshape merge` accounts for every check at every version of the run: a result no shard holds is an error, two shards holding one is refused. */
import { describe, expect, test } from 'vitest';
import { MergeError, mergeReports } from '../../harness/report/merge-reports.ts';
import type { CutShort, Report } from '../../harness/report/types.ts';
import { makeCheck, makeReport } from './sample-report.ts';

const VERSIONS = ['1.23', '1.24'];
const PASSED = { status: 'passed', durationMs: 3 } as const;

function shard(name: string, checks: Report['checks'], selection?: string[]): Report {
  return { ...makeReport(checks, VERSIONS), shard: name, ...(selection && { selection }) };
}

describe('mergeReports', () => {
  test('a check × version no shard reported becomes an error saying so, and counts as one', () => {
    // What the shards of issue 15 §5 held: system.errors.body-format at 1.23 only.
    const merged = mergeReports([
      shard('1/2', [makeCheck('system.errors.body-format', { '1.23': PASSED }), makeCheck('system.ping.ok', { '1.23': PASSED })]),
      shard('2/2', [makeCheck('system.ping.ok', { '1.24': PASSED })]),
    ]);
    expect(merged.checks.map((check) => [check.id, check.results])).toEqual([
      ['system.errors.body-format', { '1.23': PASSED, '1.24': { status: 'error', message: 'no result: no shard reported system.errors.body-format at 1.24' } }],
      ['system.ping.ok', { '1.23': PASSED, '1.24': PASSED }],
    ]);
    expect(merged.summary['1.24']).toMatchObject({ passed: 1, error: 1 });
  });

  test('a check × version two shards reported is refused: the shards did not split the run alike', () => {
    const twice = () => mergeReports([shard('1/2', [makeCheck('system.errors.body-format', { '1.23': PASSED })]), shard('2/2', [makeCheck('system.errors.body-format', { '1.23': PASSED })])]);
    expect(twice).toThrow(new MergeError('system.errors.body-format at 1.23 is in two reports (1/2 and 2/2): the shards did not split the run alike'));
  });

  test('a check the run selected that no shard reported is refused', () => {
    const selection = ['system.errors.body-format', 'system.ping.ok'];
    const merge = () => mergeReports([shard('1/2', [makeCheck('system.ping.ok', { '1.23': PASSED })], selection), shard('2/2', [makeCheck('system.ping.ok', { '1.24': PASSED })], selection)]);
    expect(merge).toThrow(new MergeError('no shard reported system.errors.body-format, which the run selected: the shards did not split the run alike'));
  });

  test('one shard cut short makes the merged run cut short: the first cut tells why, with every shard\'s results not run', () => {
    const notRun = { status: 'error', message: 'not run: interrupted' } as const;
    const cut = (at: string, count: number): CutShort => ({ reason: 'interrupted', at, signal: 'SIGINT', running: [], notRun: count, message: `interrupted by SIGINT at ${at}` });
    const merged = mergeReports([
      { ...shard('1/3', [makeCheck('system.ping.ok', { '1.23': notRun })]), cutShort: cut('2026-01-01T10:00:05.000Z', 1) },
      shard('2/3', [makeCheck('system.ping.ok', { '1.24': PASSED })]),
      { ...shard('3/3', [makeCheck('system.version.ok', { '1.23': notRun, '1.24': notRun })]), cutShort: cut('2026-01-01T10:00:02.000Z', 2) },
    ]);
    expect(merged.cutShort).toEqual({ ...cut('2026-01-01T10:00:02.000Z', 2), notRun: 3 });
    expect(mergeReports([shard('1/2', [makeCheck('system.ping.ok', { '1.23': PASSED })]), shard('2/2', [makeCheck('system.ping.ok', { '1.24': PASSED })])])).not.toHaveProperty('cutShort');
  });

  test('shards of different selections or versions are not shards of one run', () => {
    const ping = [makeCheck('system.ping.ok', { '1.23': PASSED })];
    expect(() => mergeReports([shard('1/2', ping, ['system.ping.ok']), shard('2/2', [], ['system.ping.ok', 'system.ping.head'])])).toThrow(/they select different checks/);
    expect(() => mergeReports([shard('1/2', ping), { ...shard('2/2', []), versions: ['1.24', '1.25'] }])).toThrow('the reports are not shards of one run: versions 1.23, 1.24 vs 1.24, 1.25');
  });
});
