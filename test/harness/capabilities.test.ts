/**
 * The optional capabilities a run finds on its target before the checks: `registry-index` when image
 * search answers, and not when the daemon cannot reach its index (it answers 500 then); `plugins` when
 * a plugin's privileges come back, and not when they are an empty list (dockerd without a registry).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { EngineClient } from '../../harness/client/engine-client.ts';
import { createDispatcher } from '../../harness/client/dispatcher.ts';
import { detectCapabilities } from '../../harness/run/prepare-target.ts';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A target whose GET /images/search answers `status`; returns a client of it. */
function targetSearching(status: number): Promise<EngineClient> {
  const found = '[{"name":"busybox","description":"","star_count":1,"is_official":true,"is_automated":false}]';
  return targetAnswering('/images/search?', status, status === 200 ? found : '{"message":"no"}');
}

/** A target that answers GETs of paths starting with `path` with `status` and `body`, and any other with 404; returns a client of it. */
async function targetAnswering(path: string, status: number, body: string): Promise<EngineClient> {
  const server = http.createServer((request, response) => {
    const found = request.url?.startsWith(path) ?? false;
    response.writeHead(found ? status : 404, { 'content-type': 'application/json' });
    response.end(found ? body : '{"message":"no"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const connection = { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  const dispatcher = createDispatcher(connection);
  close = async () => {
    await dispatcher.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return new EngineClient(connection, dispatcher, undefined);
}

describe('detectCapabilities', () => {
  test('a target whose search answers has registry-index', async () => {
    expect(await detectCapabilities(await targetSearching(200))).toEqual(['registry-index']);
  });

  test('a target that tells a plugin\'s privileges has plugins; one that answers none or 404 has not', async () => {
    const sshfs = '[{"Name":"network","Description":"permissions to access a network","Value":["host"]}]';
    expect(await detectCapabilities(await targetAnswering('/plugins/privileges?remote=vieux', 200, sshfs))).toEqual(['plugins']);
    await close?.();
    expect(await detectCapabilities(await targetAnswering('/plugins/privileges?remote=vieux', 200, '[]'))).toEqual([]);
    await close?.();
    expect(await detectCapabilities(await targetAnswering('/plugins/privileges?remote=vieux', 404, '{"message":"page not found"}'))).toEqual([]);
  });

  test('a target whose search fails (no network to the index) or is not served has none', async () => {
    expect(await detectCapabilities(await targetSearching(500))).toEqual([]);
    await close?.();
    expect(await detectCapabilities(await targetSearching(404))).toEqual([]);
  });
});
