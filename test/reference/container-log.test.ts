/** The json-file log store: lines and their streams, tail before the stream selection, since, follow until the end. */
import { describe, expect, test } from 'vitest';
import { ContainerLog, logAttributes, MAX_LINE_BYTES, type LogReadOptions } from '../../reference/engine/model/containers/container-log.ts';
import { OutputStream } from '../../reference/engine/process/index.ts';

function recorder() {
  let now = Date.parse('2024-03-01T12:00:00.000Z');
  const log = new ContainerLog(() => new Date(now));
  const stdout = new OutputStream();
  const stderr = new OutputStream();
  log.record(stdout, stderr);
  return {
    log,
    stdout,
    stderr,
    tick: (ms: number) => (now += ms),
    end() {
      stdout.end();
      stderr.end();
    },
  };
}

async function read(log: ContainerLog, options: Partial<LogReadOptions> = {}): Promise<string[]> {
  const lines: string[] = [];
  for await (const entry of log.read({ stdout: true, stderr: true, ...options })) lines.push(`${entry.stream}:${entry.bytes.toString()}`);
  return lines;
}

describe('ContainerLog', () => {
  test('one entry per line, the newline kept; a line written in pieces is one entry; an unfinished end is kept at the end', async () => {
    const { log, stdout, stderr, end } = recorder();
    stdout.write(Buffer.from('a\nb'));
    stderr.write(Buffer.from('oops\n'));
    stdout.write(Buffer.from('c\nd'));
    end();
    expect(await read(log)).toEqual(['stdout:a\n', 'stderr:oops\n', 'stdout:bc\n', 'stdout:d']);
  });

  test('stream selection', async () => {
    const { log, stdout, stderr, end } = recorder();
    stdout.write(Buffer.from('out\n'));
    stderr.write(Buffer.from('err\n'));
    end();
    expect([await read(log, { stderr: false }), await read(log, { stdout: false })]).toEqual([['stdout:out\n'], ['stderr:err\n']]);
  });

  test('tail counts lines of the whole log before the stream selection (as dockerd: stderr=1&tail=1 can be empty)', async () => {
    const { log, stdout, stderr, end } = recorder();
    stderr.write(Buffer.from('e1\n'));
    stdout.write(Buffer.from('1\n2\n3\n'));
    end();
    expect(await read(log, { tail: 2 })).toEqual(['stdout:2\n', 'stdout:3\n']);
    expect(await read(log, { tail: 1, stdout: false })).toEqual([]);
    expect(await read(log, { tail: 0 })).toEqual([]);
    expect(await read(log, { tail: -1 })).toHaveLength(4);
  });

  test('since keeps the lines read from that time on', async () => {
    const { log, stdout, tick, end } = recorder();
    stdout.write(Buffer.from('early\n'));
    tick(2000);
    stdout.write(Buffer.from('late\n'));
    end();
    expect(await read(log, { since: new Date('2024-03-01T12:00:01.000Z') })).toEqual(['stdout:late\n']);
  });

  test('a line longer than 16 KiB becomes several entries', async () => {
    const { log, stdout, end } = recorder();
    stdout.write(Buffer.alloc(MAX_LINE_BYTES + 10, 'x'));
    end();
    expect((await read(log)).map((line) => line.length - 'stdout:'.length)).toEqual([MAX_LINE_BYTES, 10]);
  });

  test('follow gives the new lines as they come and ends with the output', async () => {
    const { log, stdout, stderr, end } = recorder();
    stdout.write(Buffer.from('before\n'));
    const following = read(log, { follow: true });
    await new Promise((resolve) => setImmediate(resolve));
    stdout.write(Buffer.from('after\n'));
    end();
    expect(await following).toEqual(['stdout:before\n', 'stdout:after\n']);
    stderr.write(Buffer.from('ignored after the end\n'));
  });

  test('follow ends when its signal aborts; without a running process it does not wait', async () => {
    const { log, end } = recorder();
    const abort = new AbortController();
    const following = read(log, { follow: true, signal: abort.signal });
    await new Promise((resolve) => setImmediate(resolve));
    abort.abort();
    expect(await following).toEqual([]);
    end();
    expect(await read(log, { follow: true })).toEqual([]);
  });

  test('details attributes: the labels and variables the log options name', () => {
    expect(logAttributes({ labels: 'tier,missing', env: 'MODE' }, { tier: 'web', other: 'x' }, ['MODE=debug', 'PATH=/bin'])).toEqual({ tier: 'web', MODE: 'debug' });
  });
});
