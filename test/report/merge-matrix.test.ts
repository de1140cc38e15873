/** Shards run by a CI matrix: each job's own daemon, at its own address, of one build, with one seed. */
import { describe, expect, test } from 'vitest';
import { mergeReports } from '../../harness/report/merge-reports.ts';
import type { Report } from '../../harness/report/types.ts';
import { makeCheck, makeReport } from './sample-report.ts';

const VERSIONS = ['1.24', '1.25'];
const PASSED = { status: 'passed' } as const;

function shard(name: string, url: string, version: string, seed = 7): Report {
  const report = makeReport([makeCheck(`system.ping.${name.replace('/', '-of-')}`, { '1.24': PASSED, '1.25': PASSED })], VERSIONS);
  return { ...report, seed, shard: name, target: { url, dialect: 'docker', kind: 'live', server: { Version: version, ApiVersion: '1.41' } } };
}

describe('mergeReports of a matrix', () => {
  test('takes shards from daemons of one build at other addresses', () => {
    const merged = mergeReports([shard('1/2', 'unix:///run/a.sock', '20.10.24'), shard('2/2', 'unix:///run/b.sock', '20.10.24')]);
    expect(merged.checks.map((check) => check.id)).toEqual(['system.ping.1-of-2', 'system.ping.2-of-2']);
  });

  test('refuses shards of two builds, and shards of two seeds', () => {
    expect(() => mergeReports([shard('1/2', 'unix:///run/a.sock', '20.10.24'), shard('2/2', 'unix:///run/a.sock', '24.0.7')])).toThrow('the reports are not shards of one run: live docker daemon 20.10.24 (API 1.41) vs live docker daemon 24.0.7 (API 1.41)');
    expect(() => mergeReports([shard('1/2', 'unix:///run/a.sock', '20.10.24', 7), shard('2/2', 'unix:///run/a.sock', '20.10.24', 8)])).toThrow('the reports are not shards of one run: seed 7 vs 8 (give every shard the same --seed)');
  });
});
