/**
 * suite-differences.json, the per-test outcome of client libraries' own suites on dockerd and on the
 * reference (bench/client-suites/): every difference carries its reason, and the counts add up.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface SuiteRun {
  measured: string;
  run: string;
  dockerd: { passed: number; of: number };
  reference: { passed: number; of: number };
  passedOnDockerdOnly: Record<string, string>;
  passedOnReferenceOnly: Record<string, string>;
}

const { about, ...suites } = JSON.parse(readFileSync(new URL('./suite-differences.json', import.meta.url), 'utf8')) as { about: string } & Record<string, SuiteRun>;

describe('client suites, test by test', () => {
  it('says how the comparison was made', () => {
    expect(about).toMatch(/dockerd 20\.10/);
    expect(Object.keys(suites).sort()).toEqual(['docker-py@7.1.0', 'dockerode@4.0.10']);
  });

  it.each(Object.entries(suites))('%s: each difference has a reason, and the passes differ by them', (_suite, run) => {
    for (const reason of [...Object.values(run.passedOnDockerdOnly), ...Object.values(run.passedOnReferenceOnly)]) expect(reason.length).toBeGreaterThan(20);
    expect(run.dockerd.of).toBe(run.reference.of);
    // what one passed and the other did not is exactly where the two counts part
    expect(run.reference.passed - run.dockerd.passed).toBe(Object.keys(run.passedOnReferenceOnly).length - Object.keys(run.passedOnDockerdOnly).length);
  });
});
