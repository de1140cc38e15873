/**
 * Ctrl-C in the middle of a run against a live target: the run stops its checks, removes what it
 * created, writes the reports of what ran (report.json's cutShort says it was interrupted, and every
 * result it did not get is an error "not run: interrupted") and exits 130; a second Ctrl-C abandons it
 * at once. Against `shipshape serve` always; against a real daemon where SHIPSHAPE_DOCKERD_HOST names
 * one (CI's live job sets it to its private dockerd), which then holds exactly the objects it had before.
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
import { servedForSuite } from './docker-cli-process.ts';
import { PASSES_LINE, resultsOf, startRun, writtenReport } from './run-process.ts';

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

describe('Ctrl-C during a run against shipshape serve', { timeout: 180_000 }, () => {
  const served = servedForSuite('shipshape-interrupt-served-', { flags: ['--swarm=false'], each: true });
  const runAgainstServed = () => startRun(['--target', served.server().url, '--dialect', 'docker', '--only', 'containers.**', '--api', '1.25', '--report-dir', path.join(served.dir(), 'report')]);

  it.each(['SIGINT', 'SIGTERM'] as const)('%s after some checks passed: exit 130, every report written with what ran, the rest "not run: interrupted"', async (signal) => {
    const run = runAgainstServed();
    await run.waitFor(PASSES_LINE, 'a suite file with a passed check');
    run.child.kill(signal);
    const { code } = await run.exited;
    expect(code, `exit code; the run printed:\n${run.output().slice(-2000)}`).toBe(130);
    expect(run.output()).toContain('interrupted: stopping the checks and cleaning up the target');

    const dir = served.dir();
    const report = await writtenReport(path.join(dir, 'report'));
    expect(report.cutShort).toMatchObject({ reason: 'interrupted', signal, at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), message: expect.stringMatching(new RegExp(`^interrupted by ${signal} at \\d\\d:\\d\\d:\\d\\d, (during|after) containers\\.`)) });
    const results = resultsOf(report);
    expect(results.filter((result) => result.status === 'absent'), 'results missing from report.json').toEqual([]);
    expect(results.filter((result) => result.status === 'passed').length, 'results kept from before').toBeGreaterThan(0);
    const notRun = results.filter((result) => result.message === 'not run: interrupted');
    expect(notRun.every((result) => result.status === 'error')).toBe(true);
    expect(notRun.length).toBeGreaterThan(0);
    expect(notRun.length).toBe(report.cutShort?.notRun);
    expect(await fs.readFile(path.join(dir, 'report', 'report.html'), 'utf8')).toContain('<p id="cut-short"');
    expect(await fs.readFile(path.join(dir, 'report', 'summary.md'), 'utf8')).toContain(`This run was cut short: interrupted by ${signal}`);
  });

  it('a second SIGINT abandons the run at once: exit 130 without its clean-up or reports', async () => {
    const run = runAgainstServed();
    await run.waitFor(PASSES_LINE, 'a suite file with a passed check');
    run.child.kill('SIGINT');
    await run.waitFor(/^interrupted: /m, 'the line that says the run is interrupted');
    const secondAt = Date.now();
    run.child.kill('SIGINT');
    const { code, signal, at } = await run.exited;
    expect(code, `exit code (signal ${signal}); the run printed:\n${run.output().slice(-2000)}`).toBe(130);
    expect(at - secondAt, 'ms from the second SIGINT to the exit').toBeLessThan(5_000);
    expect(run.output()).not.toMatch(/^reports: /m);
  });
});
