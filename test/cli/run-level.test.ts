/**
 * `shipshape run --level` as a user runs it: the level selects what runs and what the gate judges, and
 * a bad value is one usage line with exit 2.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../harness/report/types.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(REPO_ROOT, 'bin/shipshape.js');

async function shipshape(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('shipshape run --level', { timeout: 120_000 }, async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-level-'));
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('a value other than spec, docker or all is one line, exit 2, before any target is touched', async () => {
    const result = await shipshape(['run', '--level', 'dockerd', '--target', 'unix:///nonexistent.sock']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/--level: expected spec, docker or all, got "dockerd"/)]);
  });

  it('docker runs the docker-level checks only, and the gate does not judge an entry of a spec-level check', async () => {
    // system.ping.ok (spec) passes on the reference: judged, this entry would be an unexpected pass and fail the gate
    const expectations = path.join(dir, 'expectations.json');
    await fs.writeFile(expectations, JSON.stringify({ target: 'reference', expected: { 'system.ping.ok': { '1.25': 'pretend it fails' } } }));
    const result = await shipshape(['run', '--level', 'docker', '--only', 'system.ping.*', '--api', '1.25', '--expect', expectations, '--report-dir', dir]);
    expect(result.stderr).toBe('');
    expect(result.code, result.stdout).toBe(0);
    const report = JSON.parse(await fs.readFile(path.join(dir, 'report.json'), 'utf8')) as Report;
    expect(report.checks.map(({ id, level }) => [id, level])).toEqual([['system.ping.head', 'docker']]);
    expect(report.summary['1.25']?.levels).toMatchObject({ spec: { passed: 0, failed: 0 }, docker: { passed: 1 } });
    expect(result.stdout).toMatch(/^ {3}1\.25 .* 100\.0% +– +100\.0%$/m);
  });
});
