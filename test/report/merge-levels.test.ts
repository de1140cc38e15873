/** `shipshape merge` keeps the check levels: each check's level and seen, and the summary's figures per level. */
import { describe, expect, it } from 'vitest';
import { mergeReports } from '../../harness/report/merge-reports.ts';
import { makeCheck, makeReport } from './sample-report.ts';

describe('mergeReports', () => {
  const versions = ['1.24', '1.25'];
  const docker = { level: 'docker', seen: 'dockerd 20.10.24' } as const;
  // vitest shards (version, file) pairs: one check's versions may come from two shards
  const first = { ...makeReport([makeCheck('system.ping.head', { '1.24': { status: 'failed', message: 'no body expected' } }, docker), makeCheck('system.ping.body', { '1.24': { status: 'passed' }, '1.25': { status: 'passed' } }, { level: 'spec' })], versions), shard: '1/2' };
  const second = { ...makeReport([makeCheck('system.ping.head', { '1.25': { status: 'passed' } }, docker)], versions), shard: '2/2' };
  const merged = mergeReports([first, second]);

  it('keeps each check\'s level and seen', () => {
    expect(merged.checks.map(({ id, level, seen }) => [id, level, seen])).toEqual([['system.ping.body', 'spec', undefined], ['system.ping.head', 'docker', 'dockerd 20.10.24']]);
  });

  it('summarises the joined results per level', () => {
    expect(merged.summary['1.24']?.levels).toMatchObject({ spec: { passed: 1, conformance: 1 }, docker: { failed: 1, passed: 0, conformance: 0 } });
    expect(merged.summary['1.25']?.levels).toMatchObject({ spec: { passed: 1 }, docker: { passed: 1, conformance: 1 } });
  });
});
