/**
 * The run's watch on a live target (issue 26 §6): a check's broken connection makes it ping, and only
 * pings that cannot connect, several in a row, make the target lost; any answer clears it.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { isConnectionFailure, showsConnectionFailure, TargetWatch, type TargetLoss } from '../../harness/run/target-watch.ts';

describe('TargetWatch', () => {
  let dir: string;
  let watch: TargetWatch | undefined;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-watch-'));
  });
  afterEach(async () => {
    await watch?.stop();
    await fs.rm(dir, { recursive: true, force: true });
  });
  const connection = () => ({ origin: 'http://engine.sock', socketPath: path.join(dir, 'engine.sock') });
  const listening = async <T extends net.Server>(server: T): Promise<T> => {
    await new Promise<void>((resolve) => server.listen(connection().socketPath, resolve));
    return server;
  };
  const watching = (options: { running?: () => { id: string; version: string }[]; heartbeatMs?: number } = {}) => {
    const events: string[] = [];
    let onLost: (loss: TargetLoss) => void = () => {};
    const lost = new Promise<TargetLoss>((resolve) => (onLost = resolve));
    let onAnswer: () => void = () => {};
    const answered = new Promise<void>((resolve) => (onAnswer = resolve));
    watch = new TargetWatch(connection(), {
      running: options.running ?? (() => []),
      onLost: (loss) => {
        events.push('lost');
        onLost(loss);
      },
      onAnswer: () => {
        events.push('answered');
        onAnswer();
      },
      heartbeatMs: options.heartbeatMs ?? 60_000,
      retryMs: 20,
    });
    return { watch, events, lost, answered };
  };

  test('a check whose own request broke is no loss when the target answers the ping, with any status', async () => {
    const server = await listening(http.createServer((_, res) => res.writeHead(500).end('busy')));
    try {
      const { watch, events, answered } = watching();
      watch.suspect({ id: 'system.ping.broken-request', version: '1.25' });
      await answered;
      expect(events).toEqual(['answered']);
      expect(watch.lost).toBeUndefined();
    } finally {
      server.close();
    }
  });

  test('a target that drops every connection is lost after three pings in a row, since the first sign, with the check that saw it first', async () => {
    let connections = 0;
    const server = await listening(net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    }));
    try {
      const before = Date.now();
      const { watch, lost } = watching({ running: () => [{ id: 'containers.logs.follow', version: '1.24' }, { id: 'streams.attach.stdin', version: '1.25' }] });
      watch.suspect({ id: 'streams.attach.stdin', version: '1.25' });
      const loss = await lost;
      expect(connections).toBe(3);
      expect(loss.at.getTime()).toBeGreaterThanOrEqual(before);
      expect(loss.running).toEqual([{ id: 'streams.attach.stdin', version: '1.25' }, { id: 'containers.logs.follow', version: '1.24' }]);
      expect(loss.cause).toMatch(/other side closed|ECONNRESET|EPIPE/);
      expect(watch.lost).toBe(loss);
    } finally {
      server.close();
    }
  });

  test('the checks ended with a sign still open: settle tells it, lost or answering, before the run reports', async () => {
    const gone = watching();
    gone.watch.suspect({ id: 'containers.stats.stream', version: '1.25' });
    await gone.watch.settle();
    expect(gone.watch.lost?.running).toEqual([{ id: 'containers.stats.stream', version: '1.25' }]);
    await gone.watch.stop();

    const server = await listening(http.createServer((_, res) => res.end('OK')));
    try {
      const answering = watching();
      answering.watch.suspect({ id: 'system.ping.broken-request', version: '1.25' });
      await answering.watch.settle();
      expect({ lost: answering.watch.lost, events: answering.events }).toEqual({ lost: undefined, events: ['answered'] });
    } finally {
      server.close();
    }
  });

  test('the heartbeat notices a target gone while no check fails: the checks running at its first failed ping', async () => {
    const { lost } = watching({ running: () => [{ id: 'containers.stop.timeout', version: '1.25' }], heartbeatMs: 20 });
    watch?.start();
    const loss = await lost;
    expect(loss.cause).toMatch(/ENOENT/);
    expect(loss.running).toEqual([{ id: 'containers.stop.timeout', version: '1.25' }]);
  });
});

describe('isConnectionFailure and showsConnectionFailure', () => {
  test('a connection refused, missing, reset or closed is one, on the error or its cause; a timeout or another error is not', () => {
    expect(isConnectionFailure(Object.assign(new Error('connect ECONNREFUSED /x.sock'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isConnectionFailure(new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }))).toBe(true);
    expect(isConnectionFailure(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))).toBe(false);
    expect(isConnectionFailure(Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' }))).toBe(false);
    expect(isConnectionFailure(new Error('expected 200, got 500'))).toBe(false);
  });

  test('a check\'s message that shows one is a reason to ping', () => {
    expect(showsConnectionFailure('connect ECONNREFUSED /tmp/x.sock\nrequest: GET /v1.25/_ping')).toBe(true);
    expect(showsConnectionFailure('other side closed')).toBe(true);
    expect(showsConnectionFailure('status: expected 500 to be 409')).toBe(false);
  });
});
