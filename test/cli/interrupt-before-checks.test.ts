/**
 * Ctrl-C after the target is prepared but before the first check starts (the suite is still being
 * collected): the run stops there, exit 130, no check runs. vitest clears a cancel that comes before
 * its test run begins; a live target's preparation takes seconds, so users met this window, and the
 * whole run then went on to its end.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('Ctrl-C before the first check', { timeout: 60_000 }, async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-interrupt-early-'));
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('SIGINT as the run prints its target line: exit 130, no check runs, no report', async () => {
    const child = spawn(process.execPath, ['bin/shipshape.js', 'run', '--only', 'containers.**', '--api', '1.25', '--report-dir', dir], { cwd: REPO_ROOT });
    let output = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      // The target line comes once the target is prepared, just before the suite is collected.
      if (!output.includes('shipshape: ') && chunk.includes('shipshape: ')) child.kill('SIGINT');
      output += chunk;
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, `exit code; the run printed:\n${output.slice(-1500)}`).toBe(130);
    const passes = output.split('\n').filter((line) => /: [1-9]\d* passed/.test(line));
    expect(passes, 'progress lines of checks that ran after the interrupt').toEqual([]);
    // An interrupted run writes the reports of what ran (interrupt-live-run.test.ts): here nothing ran,
    // so none is written and a previous run's reports in the directory stay as they were.
    await expect(fs.access(path.join(dir, 'report.json'))).rejects.toThrow();
    expect(output).toMatch(/^interrupted before any check ended: no report written \(what .* holds is left as it was\)$/m);
  });
});
