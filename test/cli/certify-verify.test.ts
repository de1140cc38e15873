/** `shipshape certify` and `verify` as a user runs them, in child processes, against the reference. */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../harness/repo-root.ts';

const CLI = path.join(REPO_ROOT, 'bin/shipshape.js');
const run = promisify(execFile);

/** exit code and output of the CLI, whatever the code */
async function shipshape(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('shipshape certify, verify', { timeout: 240_000 }, async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-certify-'));
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('refuses a flag that narrows the run, in one line, before running anything', async () => {
    for (const flag of [['--only', 'system.**'], ['--level', 'spec'], ['--expect', 'x.json'], ['--shard', '1/2']]) {
      const result = await shipshape(['certify', ...flag, '--report-dir', dir]);
      expect(result.code, flag.join(' ')).toBe(2);
      expect(result.stderr.trim()).toBe(`shipshape certify: certify runs every check at every version of the range: ${flag[0]} would narrow or judge it (shipshape run takes it)`);
    }
  });

  it('certifies the reference at 1.25, and verify accepts the certificate with one line', async () => {
    const certified = await shipshape(['certify', '--target', 'reference', '--api', '1.25', '--report-dir', dir]);
    expect(certified.code, certified.stdout.slice(-2000)).toBe(0);
    expect(certified.stdout).toMatch(/^certificate: reference conforms to the Engine API 1\.25: spec results \d+ of \d+ passed/m);
    // the reference fails docker-level checks of its own (fixtures/expectations/reference.json): the certificate judges, not run's gate
    expect(certified.stdout).toMatch(/Docker compatibility \(not part of the claim\): docker results \d+ of \d+ passed, [1-9]\d* failed or erred/);
    expect(certified.stdout).not.toMatch(/^gate: |^unexpected: /m);
    expect((await fs.readdir(dir)).sort()).toEqual(expect.arrayContaining(['badge.svg', 'junit.xml', 'manifest.json', 'report.html', 'report.json', 'summary.md']));
    expect(await fs.readFile(path.join(dir, 'badge.svg'), 'utf8')).toContain('Engine API 1.25: conformant');
    const verified = await shipshape(['verify', dir]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^verified: reference conforms to the Engine API 1\.25: .*\n$/);
  });
});
