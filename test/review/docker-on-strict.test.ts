/**
 * A docker-level check that passes on the strict personality is suspect (DESIGN.md, "Two levels"):
 * strict takes another answer than dockerd wherever the spec leaves one open, so a check that passes
 * there may assert what the spec states after all. fixtures/review/docker-on-strict.json lists each
 * such check with what its examination found; this runs the docker-level suite on strict and fails
 * on a passing check the file does not list, and on a listed check that no longer passes everywhere.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import type { Report } from '../../harness/report/types.ts';
import { REPO_ROOT } from './review-readings.ts';

const LISTED = path.join(REPO_ROOT, 'fixtures/review/docker-on-strict.json');

test('the docker-level checks that pass on strict are the ones examined', { timeout: 600_000 }, async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-docker-on-strict-'));
  try {
    // exit 1 is expected: most docker-level checks fail on strict
    await promisify(execFile)(process.execPath, [path.join(REPO_ROOT, 'bin/shipshape.js'), 'run', '--personality', 'strict', '--level', 'docker', '--api', '1.18-1.25', '--report-dir', dir],
      { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 580_000 }).catch((error: { code?: number }) => {
      if (error.code !== 1) throw error;
    });
    const report = JSON.parse(await fs.readFile(path.join(dir, 'report.json'), 'utf8')) as Report;
    const passing = report.checks
      .filter((check) => check.level === 'docker')
      .filter((check) => {
        const statuses = Object.values(check.results).map((result) => result.status);
        return statuses.includes('passed') && statuses.every((status) => status === 'passed' || status === 'skipped');
      })
      .map((check) => check.id)
      .sort();
    const listed = JSON.parse(await fs.readFile(LISTED, 'utf8')) as Record<string, string>;
    expect(passing.filter((id) => !(id in listed)), 'docker-level checks passing on strict, not examined in docker-on-strict.json').toEqual([]);
    expect(Object.keys(listed).filter((id) => !passing.includes(id)), 'listed in docker-on-strict.json, but no longer passing on strict').toEqual([]);
    expect(Object.entries(listed).filter(([, why]) => why.trim().length < 20).map(([id]) => id), 'listed without what the examination found').toEqual([]);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});
