/**
 * What a failure keeps of its requests, end to end: `shipshape run` against the reference behind a
 * proxy that answers POST …/stop with 500, so containers.stop.t-zero fails on that request and its
 * clean-up then removes the container. The result keeps the requests up to the failing one (the
 * clean-up's are not what showed it), with what was sent, and report.html's reproduce command for it
 * is the stop, sent to the target the run names.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../reference/serve.ts';
import type { Report } from '../../harness/report/types.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(REPO_ROOT, 'bin/shipshape.js');
const run = promisify(execFile);
const REFUSED = /^\/v1\.25\/containers\/[^/]+\/stop(\?|$)/;

let reference: RunningReference;
let proxy: http.Server;
let proxyUrl: string;
let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-failure-exchanges-'));
  reference = await startReference({ engine: 'tcp://127.0.0.1:0', swarm: false });
  const upstream = new URL(reference.engineUrl.replace(/^tcp:/, 'http:'));
  proxy = http.createServer((request, response) => {
    if (request.method === 'POST' && REFUSED.test(request.url ?? '')) {
      request.resume();
      response.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"the proxy refuses to stop"}\n');
      return;
    }
    const forwarded = http.request({ host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `tcp://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await reference.close();
  await fs.rm(dir, { recursive: true, force: true });
});

test('a failed result keeps its requests up to the failing one, and report.html gives the curl that sends it again', { timeout: 120_000 }, async () => {
  const reportDir = path.join(dir, 'report');
  const outcome = await run(process.execPath, [CLI, 'run', '--target', proxyUrl, '--api', '1.25', '--only', 'containers.stop.t-zero', '--report-dir', reportDir], { cwd: REPO_ROOT, timeout: 110_000 })
    .then(() => 0, (error: { code?: number }) => error.code ?? -1);
  expect(outcome).toBe(1);
  const report = JSON.parse(await fs.readFile(path.join(reportDir, 'report.json'), 'utf8')) as Report;
  const result = report.checks.find((check) => check.id === 'containers.stop.t-zero')?.results['1.25'];
  expect(result?.status).toBe('failed');
  const exchanges = result?.exchanges ?? [];
  expect(exchanges.length).toBeGreaterThan(1);
  expect(exchanges.length).toBeLessThanOrEqual(5);
  const last = exchanges.at(-1);
  expect(last).toMatchObject({ method: 'POST', status: 500, bodyPreview: '{"message":"the proxy refuses to stop"}\n' });
  expect(last?.path).toMatch(/^\/v1\.25\/containers\/[0-9a-f]{64}\/stop\?t=0$/);
  // the create before it, with the body it sent
  const create = exchanges.find((exchange) => exchange.path.startsWith('/v1.25/containers/create'));
  expect(create?.sent?.headers).toEqual({ 'content-type': 'application/json' });
  expect(JSON.parse(create?.sent?.body ?? '{}')).toMatchObject({ Labels: expect.any(Object) });
  expect(exchanges.some((exchange) => exchange.method === 'DELETE')).toBe(false);

  const html = await fs.readFile(path.join(reportDir, 'report.html'), 'utf8');
  const port = proxyUrl.slice('tcp://127.0.0.1:'.length);
  expect(html).toContain(`<pre class="reproduce">curl --silent --show-error --include \\\n  --request POST \\\n  &#39;http://127.0.0.1:${port}${last?.path}&#39;</pre>`);
});
