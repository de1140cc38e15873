/** startReference: addresses, Unix sockets, stale socket files, fast close, test controls, dialects. */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Agent, request } from 'undici';
import { parseListenAddress, startReference } from '../../reference/serve.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shipshape-serve-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function viaSocket(socketPath: string) {
  return new Agent({ connect: { socketPath } });
}

describe('parseListenAddress', () => {
  test('unix and tcp addresses', () => {
    expect(parseListenAddress('unix:///run/x.sock')).toEqual({ kind: 'unix', path: '/run/x.sock' });
    expect(parseListenAddress('tcp://127.0.0.1:0')).toEqual({ kind: 'tcp', host: '127.0.0.1', port: 0 });
  });

  test.each(['unix://relative.sock', 'tcp://127.0.0.1', 'http://127.0.0.1:80', 'tcp://127.0.0.1:70000', ''])('refuses %j in one line', (address) => {
    expect(() => parseListenAddress(address)).toThrow(/^expected unix:\/\/\/PATH or tcp:\/\/HOST:PORT, got /);
  });
});

describe('startReference', () => {
  test('on tcp port 0 it reports the port it bound', async () => {
    const reference = await startReference();
    try {
      expect(reference.engineUrl).toMatch(/^tcp:\/\/127\.0\.0\.1:[1-9]\d*$/);
      const res = await request(`${reference.engineUrl.replace(/^tcp:/, 'http:')}/_ping`);
      expect([res.statusCode, await res.body.text()]).toEqual([200, 'OK']);
    } finally {
      await reference.close();
    }
  });

  test('on a Unix socket it answers there', async () => {
    const socketPath = join(dir, 'engine.sock');
    const reference = await startReference({ engine: `unix://${socketPath}` });
    const agent = viaSocket(socketPath);
    try {
      expect(reference.engineUrl).toBe(`unix://${socketPath}`);
      const res = await request('http://engine/v1.24/version', { dispatcher: agent });
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toMatchObject({ ApiVersion: '1.25' });
    } finally {
      await agent.close();
      await reference.close();
    }
  });

  test('a socket file left by a dead process is replaced', async () => {
    const socketPath = join(dir, 'stale.sock');
    // A process killed while listening leaves its socket file behind.
    const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`]);
    await new Promise((resolve) => child.once('exit', resolve));
    expect((await stat(socketPath)).isSocket()).toBe(true);

    const reference = await startReference({ engine: `unix://${socketPath}` });
    const agent = viaSocket(socketPath);
    try {
      expect((await request('http://engine/_ping', { dispatcher: agent })).statusCode).toBe(200);
    } finally {
      await agent.close();
      await reference.close();
    }
  });

  test('a regular file at the socket path is left alone and the start fails', async () => {
    const path = join(dir, 'not-a-socket');
    await writeFile(path, 'keep me');
    await expect(startReference({ engine: `unix://${path}` })).rejects.toThrow(/EADDRINUSE/);
    expect((await stat(path)).isFile()).toBe(true);
  });

  test('close ends keep-alive connections at once', async () => {
    const reference = await startReference();
    const agent = new Agent({ keepAliveTimeout: 60_000 });
    const res = await request(`${reference.engineUrl.replace(/^tcp:/, 'http:')}/_ping`, { dispatcher: agent });
    await res.body.text();
    const started = performance.now();
    await reference.close();
    expect(performance.now() - started).toBeLessThan(1000);
    await agent.close();
  });

  test('idle connections are never timed out by any server, as on dockerd: no Keep-Alive timeout is announced', async () => {
    const reference = await startReference({ token: 'tcp://127.0.0.1:0', accounts: 'tcp://127.0.0.1:0' });
    try {
      const urls = [`${reference.engineUrl.replace(/^tcp:/, 'http:')}/_ping`, `${reference.token?.url}/token`, `${reference.accounts?.url}/api/v1.1/users/alice/`];
      for (const url of urls) {
        const res = await request(url);
        await res.body.text();
        expect({ url, connection: res.headers.connection, keepAlive: res.headers['keep-alive'] }).toEqual({ url, connection: 'keep-alive', keepAlive: undefined });
      }
    } finally {
      await reference.close();
    }
  });

  test('reset empties the engine without restarting it', async () => {
    const reference = await startReference();
    try {
      reference.model.containers.create({ config: { Image: 'busybox' } });
      reference.reset();
      expect(reference.model.containers.size).toBe(0);
    } finally {
      await reference.close();
    }
  });

  test('the docker dialect names the root directory after docker', async () => {
    const reference = await startReference({ dialect: 'docker' });
    try {
      const res = await request(`${reference.engineUrl.replace(/^tcp:/, 'http:')}/info`);
      const info = (await res.body.json()) as Record<string, unknown>;
      expect(info.DockerRootDir).toBe('/var/lib/docker');
      expect(info).not.toHaveProperty('EngineRootDir');
    } finally {
      await reference.close();
    }
  });
});
