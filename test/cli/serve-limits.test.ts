/** `shipshape serve` with the limits flags (README, Limits), in a child process as a user runs it. */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { request } from 'undici';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(REPO_ROOT, 'bin/shipshape.js');
const run = promisify(execFile);

describe('shipshape serve limits', { timeout: 60_000 }, () => {
  it('a body over --max-json-body gets 413 naming the limit; a request that once crashed the process gets 400 and serve keeps serving', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--engine', 'tcp://127.0.0.1:0', '--max-json-body', '1KiB'], { cwd: REPO_ROOT });
    try {
      const [firstChunk] = (await once(child.stdout, 'data')) as [Buffer];
      const url = /^engine: tcp:\/\/(127\.0\.0\.1:\d+)$/m.exec(firstChunk.toString())?.[1];
      expect(url, firstChunk.toString()).toBeDefined();
      const created = await request(`http://${url}/v1.25/containers/create`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ Image: 'busybox:latest', Env: ['X='.padEnd(2000, 'x')] }) });
      expect([created.statusCode, await created.body.json()]).toEqual([413, { message: 'the request body is larger than the 1 KiB a json body may have (--max-json-body)' }]);
      const huge = await request(`http://${url}/v999999999999999999999.1/_ping`);
      expect(huge.statusCode).toBe(400);
      await huge.body.dump();
      const ping = await request(`http://${url}/_ping`);
      expect(await ping.body.text()).toBe('OK');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  it.each([
    [['--max-tar-body', 'lots'], '--max-tar-body: expected a size such as 4MiB, 512KiB or 65536, got "lots"'],
    [['--idle-timeout', '0'], '--idle-timeout: expected seconds (a positive number), got "0"'],
  ])('%j is a usage error (exit 2)', async (flags, message) => {
    const failed = await run(process.execPath, [CLI, 'serve', ...flags], { cwd: REPO_ROOT }).catch((error: { code: number; stderr: string }) => error);
    expect('code' in failed && failed.code).toBe(2);
    expect('stderr' in failed && failed.stderr).toContain(message);
  });
});
