/**
 * Ctrl-C in the middle of a run against a real daemon: the run stops its checks, removes what it
 * created and exits 130, leaving the daemon with exactly the objects it had before. Runs where
 * SHIPSHAPE_DOCKERD_HOST names a daemon (CI's live job sets it to its private dockerd).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../harness/client/dispatcher.ts';
import { EngineClient } from '../../harness/client/engine-client.ts';
import { RUN_LABEL } from '../../harness/resources.ts';
import { snapshotDaemon } from '../../harness/run/daemon-snapshot.ts';
import { sortedSnapshot } from './snapshot-listing.ts';
import { connectionOf } from '../../harness/run/prepare-target.ts';
import { until } from '../../harness/wait-until.ts';

const DOCKERD_HOST = process.env.SHIPSHAPE_DOCKERD_HOST;
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe.skipIf(!DOCKERD_HOST)('Ctrl-C during a run against real dockerd (SHIPSHAPE_DOCKERD_HOST)', { timeout: 180_000 }, () => {
  const connection = connectionOf(DOCKERD_HOST ?? '');
  const engine = new EngineClient(connection, createDispatcher(connection), undefined);
  let reportDir: string;
  afterAll(() => fs.rm(reportDir, { recursive: true, force: true }));

  it('SIGINT while checks are creating objects: exit 130, and the daemon holds what it held before', async () => {
    reportDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-interrupt-'));
    const before = await snapshotDaemon(engine);
    const child = spawn(process.execPath, ['bin/shipshape.js', 'run', '--target', DOCKERD_HOST ?? '', '--dialect', 'docker', '--only', 'containers.**,volumes.**,networks.**', '--api', '1.24,1.25', '--report-dir', reportDir], { cwd: REPO_ROOT });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = once(child, 'exit');
    const started = Date.now();
    // Interrupted while the run's own containers exist: the moment a clean-up has the most to do.
    await until(async () => {
      const res = await engine.get('/containers/json', { query: { all: 1, filters: JSON.stringify({ label: [RUN_LABEL] }) } });
      return res.json<unknown[]>().length;
    }, (count) => count > 0, { what: 'the run to create its first container', timeoutMs: 90_000, intervalMs: 200 });
    const interruptedAt = Date.now();
    child.kill('SIGINT');
    const [code] = (await exited) as [number | null];
    // Where a slow run's time went, in CI's log: reaching the first container, or cleaning up.
    console.log(`first container after ${((interruptedAt - started) / 1000).toFixed(1)} s; exit ${((Date.now() - interruptedAt) / 1000).toFixed(1)} s after SIGINT`);
    expect(code, `exit code of the interrupted run; it printed:\n${output.slice(-1500)}`).toBe(130);
    expect(output).toContain('interrupted: stopping the checks and cleaning up the target');
    expect(sortedSnapshot(await snapshotDaemon(engine))).toEqual(sortedSnapshot(before));
  });
});
