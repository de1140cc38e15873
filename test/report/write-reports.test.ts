import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { writeReports } from '../../harness/report/write-reports.ts';
import { STATUSES } from '../../harness/report/result-statuses.ts';
import type { Report } from '../../harness/report/types.ts';
import { sampleReport } from './sample-report.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
// the package's copy of ../shared/report.schema.json (report-schema-copy.test.ts keeps them equal)
const SCHEMA_PATH = path.join(REPO_ROOT, 'harness/report/report.schema.json');

describe('writeReports', async () => {
  const schema = JSON.parse(await fs.readFile(SCHEMA_PATH, 'utf8')) as object;
  const validate = addFormats(new Ajv2020({ allErrors: true, strict: false })).compile(schema);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-reports-'));
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));
  const report = sampleReport();
  const written = await writeReports(report, path.join(dir, 'nested', 'latest'));

  it('covers several areas, all six statuses and eight versions (the test data is realistic)', () => {
    const statuses = new Set(report.checks.flatMap((check) => Object.values(check.results).map((result) => result.status)));
    expect([...statuses].sort()).toEqual([...STATUSES].sort());
    expect(new Set(report.checks.map((check) => check.area)).size).toBeGreaterThanOrEqual(4);
    expect(report.versions).toHaveLength(8);
  });

  it('writes the four files, creating the directory, and returns their paths', async () => {
    expect(written.map((file) => path.basename(file))).toEqual(['report.json', 'junit.xml', 'report.html', 'summary.md']);
    for (const file of written) {
      expect(path.isAbsolute(file)).toBe(true);
      expect((await fs.stat(file)).size).toBeGreaterThan(0);
    }
  });

  it('writes a report.json that validates against the shared schema and reads back unchanged', async () => {
    const text = await fs.readFile(path.join(dir, 'nested', 'latest', 'report.json'), 'utf8');
    expect(text).toMatch(/^\{\n {2}"tool"/);
    const value: unknown = JSON.parse(text);
    expect(validate(value) ? [] : validate.errors).toEqual([]);
    expect(value).toEqual(report);
  });

  it('fills the level fields the schema has: checks[].level and seen, summary[version].levels.spec and docker', () => {
    expect(report.checks.filter((check) => check.level === 'docker').every((check) => check.seen === 'dockerd 20.10.24')).toBe(true);
    for (const version of report.versions) {
      const summary = report.summary[version];
      expect(Object.keys(summary?.levels ?? {}), version).toEqual(['spec', 'docker']);
      expect((summary?.levels?.spec?.passed ?? 0) + (summary?.levels?.docker?.passed ?? 0)).toBe(summary?.passed);
    }
  });

  it('the schema check can fail on the level fields: an unknown level, a third level summary, a level summary without conformance', () => {
    const badLevel = structuredClone(report) as unknown as { checks: { level: string }[] };
    badLevel.checks[0]!.level = 'dockerd';
    expect(validate(badLevel)).toBe(false);
    const thirdLevel = structuredClone(report) as unknown as { summary: Record<string, { levels: Record<string, unknown> }> };
    thirdLevel.summary['1.24']!.levels.podman = thirdLevel.summary['1.24']!.levels.spec;
    expect(validate(thirdLevel)).toBe(false);
    const noConformance = structuredClone(report) as unknown as { summary: Record<string, { levels: Record<string, { conformance?: number }> }> };
    delete noConformance.summary['1.24']!.levels.docker!.conformance;
    expect(validate(noConformance)).toBe(false);
  });

  it('the schema check can fail: a report without summary, or with an unknown status, is rejected', () => {
    const withoutSummary: Partial<Report> = structuredClone(report);
    delete withoutSummary.summary;
    expect(validate(withoutSummary)).toBe(false);
    const badStatus = structuredClone(report) as unknown as { checks: { results: Record<string, { status: string }> }[] };
    badStatus.checks[0]!.results['1.24']!.status = 'flaky';
    expect(validate(badStatus)).toBe(false);
  });
});
