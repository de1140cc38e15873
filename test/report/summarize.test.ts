import { describe, expect, it } from 'vitest';
import { countResults, summarize } from '../../harness/report/summarize.ts';
import type { ResultStatus, VersionResult } from '../../harness/report/types.ts';
import { makeCheck } from './sample-report.ts';

const results = (...statuses: ResultStatus[]): VersionResult[] => statuses.map((status) => ({ status }));

describe('countResults', () => {
  it('counts each status and computes passed / (passed + failed + error + expected-failure)', () => {
    const counts = countResults(results('passed', 'passed', 'passed', 'failed', 'failed', 'error', 'skipped', 'skipped', 'expected-failure'));
    expect(counts).toEqual({ passed: 3, failed: 2, error: 1, skipped: 2, expectedFailures: 1, unexpectedPasses: 0, conformance: 3 / 7 });
  });

  it('counts an unexpected pass as passed and as an unexpected pass', () => {
    const counts = countResults(results('unexpected-pass', 'failed'));
    expect(counts.passed).toBe(1);
    expect(counts.unexpectedPasses).toBe(1);
    expect(counts.conformance).toBe(0.5);
  });

  it('leaves skipped results out of conformance', () => {
    expect(countResults(results('passed', 'skipped', 'skipped', 'skipped')).conformance).toBe(1);
    expect(countResults(results('failed', 'skipped')).conformance).toBe(0);
  });

  it('is 1 when nothing was judged, never NaN', () => {
    expect(countResults(results('skipped', 'skipped')).conformance).toBe(1);
    expect(countResults([]).conformance).toBe(1);
  });
});

describe('summarize', () => {
  it('summarises each version of the run apart, ignoring versions a check has no result at', () => {
    const checks = [
      makeCheck('system.a.one', { '1.24': { status: 'passed' }, '1.25': { status: 'failed' } }),
      makeCheck('system.a.two', { '1.24': { status: 'error' }, '1.25': { status: 'passed' } }),
      makeCheck('system.a.three', { '1.25': { status: 'expected-failure' } }),
    ];
    const summary = summarize(checks, ['1.24', '1.25']);
    expect(Object.keys(summary)).toEqual(['1.24', '1.25']);
    expect(summary['1.24']).toMatchObject({ passed: 1, error: 1, failed: 0, expectedFailures: 0, conformance: 0.5 });
    expect(summary['1.25']).toMatchObject({ passed: 1, failed: 1, expectedFailures: 1, conformance: 1 / 3 });
  });

  it('gives a version no check ran at an all-zero summary, for each level too', () => {
    const zero = { passed: 0, failed: 0, error: 0, skipped: 0, expectedFailures: 0, unexpectedPasses: 0, conformance: 1 };
    expect(summarize([makeCheck('system.a.one', { '1.24': { status: 'passed' } })], ['1.18'])['1.18']).toEqual({ ...zero, levels: { spec: zero, docker: zero } });
  });

  it('gives the same figures per level: spec-level checks (conformance) and docker-level ones (Docker compatibility) apart', () => {
    const checks = [
      makeCheck('system.a.spec-pass', { '1.24': { status: 'passed' } }, { level: 'spec' }),
      makeCheck('system.a.spec-fail', { '1.24': { status: 'failed' } }, { level: 'spec' }),
      makeCheck('system.a.docker-xfail', { '1.24': { status: 'expected-failure' } }, { level: 'docker', seen: 'dockerd 20.10.24' }),
      makeCheck('system.a.docker-xpass', { '1.24': { status: 'unexpected-pass' } }, { level: 'docker', seen: 'dockerd 20.10.24' }),
      makeCheck('system.a.docker-skip', { '1.24': { status: 'skipped' } }, { level: 'docker', seen: 'dockerd 20.10.24' }),
    ];
    const summary = summarize(checks, ['1.24'])['1.24'];
    expect(summary).toMatchObject({ passed: 2, failed: 1, skipped: 1, expectedFailures: 1, unexpectedPasses: 1, conformance: 2 / 4 });
    expect(summary?.levels?.spec).toEqual({ passed: 1, failed: 1, error: 0, skipped: 0, expectedFailures: 0, unexpectedPasses: 0, conformance: 0.5 });
    expect(summary?.levels?.docker).toEqual({ passed: 1, failed: 0, error: 0, skipped: 1, expectedFailures: 1, unexpectedPasses: 1, conformance: 0.5 });
  });

  it('counts a check without a level (a report written before levels) as spec-level', () => {
    const summary = summarize([makeCheck('system.a.old', { '1.24': { status: 'failed' } }), makeCheck('system.a.new', { '1.24': { status: 'passed' } }, { level: 'docker' })], ['1.24'])['1.24'];
    expect(summary?.levels?.spec).toMatchObject({ failed: 1, passed: 0, conformance: 0 });
    expect(summary?.levels?.docker).toMatchObject({ failed: 0, passed: 1, conformance: 1 });
  });
});
