/**
 * `--target container:IMAGE` on a real Docker host: the run starts the image's daemon in a container,
 * checks it, and removes the container with its volumes, after a whole run and after Ctrl-C. Runs
 * where SHIPSHAPE_DOCKERD_HOST names the Docker host and SHIPSHAPE_DAEMON_IMAGE an image on it whose
 * daemon listens on TCP 2375 (CI builds one with .ci/dockerd-image-build.sh).
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
import { TARGET_LABEL } from '../../harness/run/container-target.ts';
import { snapshotDaemon } from '../../harness/run/daemon-snapshot.ts';
import { sortedSnapshot } from './snapshot-listing.ts';
import { connectionOf } from '../../harness/run/prepare-target.ts';
import { until } from '../../harness/wait-until.ts';
import type { Report } from '../../harness/report/types.ts';

const DOCKER_HOST = process.env.SHIPSHAPE_DOCKERD_HOST;
const IMAGE = process.env.SHIPSHAPE_DAEMON_IMAGE;
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `shipshape run --target container:IMAGE` in a child process, its Docker host the one under test */
function startRun(args: string[]) {
  const child = spawn(process.execPath, ['bin/shipshape.js', 'run', '--target', `container:${IMAGE ?? ''}`, '--dialect', 'docker', ...args], {
    cwd: REPO_ROOT,
    // testcontainers' reaper is an image from Docker Hub, which this host cannot pull; the run removes its container itself
    env: { ...process.env, DOCKER_HOST, TESTCONTAINERS_RYUK_DISABLED: 'true' },
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, exited, output: () => output };
}

describe.skipIf(!DOCKER_HOST || !IMAGE)('--target container:IMAGE on a real Docker host (SHIPSHAPE_DOCKERD_HOST, SHIPSHAPE_DAEMON_IMAGE)', { timeout: 300_000 }, () => {
  const connection = connectionOf(DOCKER_HOST ?? '');
  const host = new EngineClient(connection, createDispatcher(connection), undefined);
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true }))));
  const reportDir = async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-container-target-'));
    dirs.push(dir);
    return dir;
  };

  it('a run against the daemon in the container passes its gate, reports the target, and leaves the host as it was', async () => {
    const before = await snapshotDaemon(host);
    const dir = await reportDir();
    const run = startRun(['--only', 'system.**', '--api', '1.25', '--expect', 'fixtures/expectations/docker-20.10.json', '--report-dir', dir]);
    expect(await run.exited, `exit code; the run printed:\n${run.output().slice(-2000)}`).toBe(0);
    const report = JSON.parse(await fs.readFile(path.join(dir, 'report.json'), 'utf8')) as Report;
    expect(report.target).toMatchObject({ url: `container:${IMAGE}`, kind: 'live', server: { ApiVersion: expect.any(String) } });
    expect(report.summary['1.25']?.passed).toBeGreaterThan(10);
    expect(sortedSnapshot(await snapshotDaemon(host))).toEqual(sortedSnapshot(before));
  });

  it('Ctrl-C while the container starts: exit 130, and the container and its volume are gone', async () => {
    const before = await snapshotDaemon(host);
    const run = startRun(['--only', 'system.**', '--api', '1.25', '--report-dir', await reportDir()]);
    await until(async () => {
      const res = await host.get('/containers/json', { query: { all: 1, filters: JSON.stringify({ label: [TARGET_LABEL] }) } });
      return res.json<unknown[]>().length;
    }, (count) => count > 0, { what: 'the run to create its target container', timeoutMs: 60_000, intervalMs: 100 });
    run.child.kill('SIGINT');
    expect(await run.exited, `exit code; the run printed:\n${run.output().slice(-2000)}`).toBe(130);
    expect(sortedSnapshot(await snapshotDaemon(host))).toEqual(sortedSnapshot(before));
  });
});
