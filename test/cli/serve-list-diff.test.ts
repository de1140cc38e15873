/** `shipshape serve`, `list` and `diff` as a user runs them, in child processes. */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { sampleReport } from '../report/sample-report.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(REPO_ROOT, 'bin/shipshape.js');
const run = promisify(execFile);

describe('shipshape serve, list, diff', { timeout: 60_000 }, async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-cli-'));
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('serve prints the engine URL, answers on it, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--engine', 'tcp://127.0.0.1:0', '--dialect', 'docker'], { cwd: REPO_ROOT });
    const [firstChunk] = (await once(child.stdout, 'data')) as [Buffer];
    const url = /^engine: (tcp:\/\/127\.0\.0\.1:\d+)$/m.exec(firstChunk.toString())?.[1];
    expect(url, firstChunk.toString()).toBeDefined();
    const ping = await request(`${url!.replace('tcp:', 'http:')}/v1.24/_ping`);
    expect(ping.statusCode).toBe(200);
    expect(await ping.body.text()).toBe('OK');
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(0);
  });

  it('list --api shows only the checks that apply at that version', async () => {
    const at = async (version: string) => (await run(process.execPath, [CLI, 'list', '--json', '--api', version], { cwd: REPO_ROOT })).stdout;
    const [old, current] = (await Promise.all([at('1.18'), at('1.25')])).map((text) => JSON.parse(text) as { id: string; since: string }[]);
    expect(old!.length).toBeGreaterThan(10);
    expect(old!.every((check) => check.since === '1.18')).toBe(true);
    expect(current!.length).toBeGreaterThanOrEqual(old!.length);
  });

  it('list into a reader that stops early (| head -1) exits 0 without an error', async () => {
    const child = spawn(process.execPath, [CLI, 'list'], { cwd: REPO_ROOT });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    await once(child.stdout, 'data');
    child.stdout.destroy();
    const [code] = (await once(child, 'exit')) as [number];
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('diff of a report with itself is empty; a changed result is listed under its version', async () => {
    const a = sampleReport();
    const b = structuredClone(a);
    const changed = b.checks.find((check) => check.results['1.24']?.status === 'passed')!;
    changed.results['1.24'] = { status: 'failed', message: 'now broken' };
    await fs.writeFile(path.join(dir, 'a.json'), JSON.stringify(a));
    await fs.writeFile(path.join(dir, 'b.json'), JSON.stringify(b));
    const same = await run(process.execPath, [CLI, 'diff', path.join(dir, 'a.json'), path.join(dir, 'a.json'), '--format', 'json'], { cwd: REPO_ROOT });
    expect((JSON.parse(same.stdout) as { empty: boolean }).empty).toBe(true);
    const differs = await run(process.execPath, [CLI, 'diff', path.join(dir, 'a.json'), path.join(dir, 'b.json'), '--format', 'json'], { cwd: REPO_ROOT });
    const diff = JSON.parse(differs.stdout) as { versions: { version: string; regressions: { id: string }[] }[] };
    expect(diff.versions.map((version) => version.version)).toEqual(['1.24']);
    expect(diff.versions[0]?.regressions.map((change) => change.id)).toEqual([changed.id]);
  });

  it('diff of a file that is not a report is one line, exit 2', async () => {
    await fs.writeFile(path.join(dir, 'not-a-report.json'), '{"hello": 1}');
    const failed = await run(process.execPath, [CLI, 'diff', path.join(dir, 'not-a-report.json'), path.join(dir, 'not-a-report.json')], { cwd: REPO_ROOT }).catch((error: { code: number; stderr: string }) => error);
    expect('code' in failed && failed.code).toBe(2);
    expect('stderr' in failed && failed.stderr.trim().split('\n')).toHaveLength(1);
  });
});
