/**
 * A run whose target goes away keeps what it has (issue 26 §6). `shipshape serve` is killed (SIGKILL, as
 * a daemon crashes) in the middle of a run against it: once between the containers area's checks, once
 * while a check holds a stream open (an attach or a logs follow). Either way the run says so in one line
 * naming the check that was running, records every result it did not get as an error saying why, writes
 * every report and exits 2.
 */
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { servedForSuite } from './docker-cli-process.ts';
import { PASSES_LINE, resultsOf, startRun, writtenReport, type RunProcess } from './run-process.ts';

/** A request that opens a stream: an attach that streams, or logs that follow. */
const STREAM_REQUEST = /^(?:GET|POST) \/v1\.\d+\/containers\/[^/ ]+\/(?:attach(?:\/ws)?|logs)\?\S*\b(?:stream|follow)=(?:1|true)\b/m;

describe('the target killed in the middle of a run', { timeout: 240_000 }, () => {
  const served = servedForSuite('shipshape-target-lost-', { flags: ['--swarm=false'], each: true });

  it('between checks: exit 2, one line naming the running check, the results so far kept and the rest errors, every report written', async () => {
    const reportDir = path.join(served.dir(), 'report');
    const run = startRun(['--target', served.server().url, '--dialect', 'docker', '--only', 'containers.**', '--api', '1.25', '--report-dir', reportDir]);
    await run.waitFor(PASSES_LINE, 'a suite file with a passed check');
    await served.server().kill();
    await expectTargetLost(run, reportDir, 'containers.');
  });

  it('while a check holds a stream open: the same', async () => {
    const [dir, reportDir] = [served.dir(), path.join(served.dir(), 'report')];
    let armed = false;
    let streamOpened = () => {};
    const streamOpen = new Promise<void>((resolve) => (streamOpened = () => armed && resolve()));
    const proxy = await streamWatchingProxy(path.join(dir, 'proxy.sock'), served.server().url.slice('unix://'.length), () => streamOpened());
    const run = startRun(['--target', proxy.url, '--dialect', 'docker', '--only', 'streams.**', '--api', '1.18-1.25', '--report-dir', reportDir]);
    await run.waitFor(PASSES_LINE, 'a suite file with a passed check');
    armed = true;
    await streamOpen;
    await served.server().kill();
    // the daemon's socket goes with it, as dockerd's does
    await proxy.close();
    await expectTargetLost(run, reportDir, 'streams.');
  });
});

async function expectTargetLost(run: RunProcess, reportDir: string, area: string): Promise<void> {
  const { code } = await run.exited;
  const output = run.output();
  expect(code, `exit code; the run printed:\n${output.slice(-3000)}`).toBe(2);
  const said = output.split('\n').filter((line) => line.includes('unreachable'));
  expect(said, 'the lines that say the target is unreachable').toHaveLength(1);
  const [, since, when, check, version] = /^target unreachable since (\d\d:\d\d:\d\d) \(.+?\), (during|after) (\S+) at (1\.\d+)/.exec(said[0] ?? '') ?? [];
  expect(check, said[0]).toMatch(new RegExp(`^${area.replace('.', '\\.')}`));

  const report = await writtenReport(reportDir);
  expect(report.cutShort).toMatchObject({ reason: 'target-unreachable', at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), message: said[0]?.replace(/: the remaining checks are not run$/, '') });
  if (when === 'during') expect(report.cutShort?.running[0]).toEqual({ id: check, version });
  const results = resultsOf(report);
  // a check the loss cut off (a stream ended early) is no verdict on the target: an error that says so
  const cutOff = new Set(report.cutShort?.running.map((running) => `${running.id} ${running.version}`));
  expect(results.filter((result) => cutOff.has(result.key) && result.status === 'failed')).toEqual([]);
  expect(results.filter((result) => result.status === 'absent'), 'results missing from report.json').toEqual([]);
  expect(results.filter((result) => result.status === 'passed').length, 'results kept from before').toBeGreaterThan(0);
  const notRun = results.filter((result) => result.message === `not run: target unreachable since ${since}, ${when} ${check} at ${version}`);
  expect(notRun.every((result) => result.status === 'error')).toBe(true);
  expect(notRun.length).toBeGreaterThan(0);
  expect(notRun.length).toBe(report.cutShort?.notRun);
  expect(await fs.readFile(path.join(reportDir, 'report.html'), 'utf8')).toContain('<p id="cut-short"');
  expect(await fs.readFile(path.join(reportDir, 'summary.md'), 'utf8')).toContain(`This run was cut short: target unreachable since ${since}`);
}

/** A Unix socket in front of `upstream` that calls `onStream` whenever a stream request (STREAM_REQUEST) gets the first bytes of its answer. */
async function streamWatchingProxy(socketPath: string, upstream: string, onStream: () => void): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const daemon = net.connect(upstream);
    let streaming = false;
    client.on('data', (chunk: Buffer) => {
      // undici sends one request at a time on a connection: an answer after this one is its answer
      if (STREAM_REQUEST.test(chunk.toString('latin1'))) streaming = true;
    });
    daemon.on('data', () => {
      if (streaming) onStream();
    });
    client.pipe(daemon).pipe(client);
    const end = () => {
      client.destroy();
      daemon.destroy();
    };
    for (const socket of [client, daemon]) {
      sockets.add(socket);
      socket.on('error', end).on('close', () => {
        sockets.delete(socket);
        end();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    url: `unix://${socketPath}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
