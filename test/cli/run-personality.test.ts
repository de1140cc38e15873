/**
 * `--personality` of run and serve, in a child process: a bad value, or a live target given one, is
 * one usage line and exit 2; a run against the strict reference says so in its report's target.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(REPO_ROOT, 'bin/shipshape.js');
const run = promisify(execFile);

async function shipshape(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, timeout: 110_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('--personality', { timeout: 120_000 }, async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-personality-'));
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it.each([
    [['run', '--personality', 'lenient'], /^shipshape run: --personality: expected dockerd or strict, got "lenient"/],
    [['run', '--target', 'unix:///nowhere/engine.sock', '--personality', 'strict'], /^shipshape run: --personality: only with the reference target/],
    [['serve', '--personality', 'lenient'], /^shipshape serve: --personality: expected dockerd or strict, got "lenient"/],
  ])('%j: one usage line, exit 2', async (args, message) => {
    const { code, stderr } = await shipshape(args);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  });

  it("a run against the strict reference names it in the report's target", async () => {
    const reportDir = path.join(dir, 'strict');
    const { code, stdout } = await shipshape(['run', '--personality', 'strict', '--only', 'system.ping.*', '--api', '1.25', '--report-dir', reportDir]);
    expect(code, stdout).toBe(0);
    const report = JSON.parse(await fs.readFile(path.join(reportDir, 'report.json'), 'utf8')) as { target: { url: string; kind: string } };
    expect(report.target).toMatchObject({ url: 'reference:strict', kind: 'reference' });
  });
});
