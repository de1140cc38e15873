import { describe, expect, test } from 'vitest';
import { Readable, Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { demuxStream } from '../../../harness/streams/demux.ts';
import { FrameDecoder } from '../../../harness/streams/frame-decoder.ts';
import { encodeFrame } from '../../../protocol/frame-encoder.ts';
import { createStreamDecoder, decodeRawTty, decodeStreamBody, RawTtyDecoder } from '../../../harness/streams/raw-tty.ts';
import { FrameError } from '../../../protocol/stream-types.ts';

/** A writable that keeps what it gets; `slow` completes each write a turn later, so it pushes back. */
function collector({ slow = false } = {}) {
  const chunks: Buffer[] = [];
  const seen = { mostQueued: 0 };
  const writable = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      seen.mostQueued = Math.max(seen.mostQueued, writable.writableLength);
      if (slow) setImmediate(callback);
      else callback();
    },
  });
  return { writable, seen, text: () => Buffer.concat(chunks).toString() };
}

const framed = Buffer.concat([
  encodeFrame('stdout', Buffer.from('one\n')),
  encodeFrame('stderr', Buffer.from('oops\n')),
  encodeFrame('stdin', Buffer.from('echoed\n')),
  encodeFrame('stdout', Buffer.from('two\n')),
]);

describe('raw TTY passthrough', () => {
  test('a Tty body is all stdout, bytes untouched, even where they look like frame headers', () => {
    const body = Buffer.concat([Buffer.from('hi\r\n'), encodeFrame('stderr', Buffer.from('x'))]);
    const decoded = decodeRawTty(body);
    expect(decoded.stdout.equals(body)).toBe(true);
    expect(decoded.stderr.length).toBe(0);
    expect(decoded.frames).toEqual([{ stream: 'stdout', payload: body, offset: 0 }]);
    expect(decodeRawTty(Buffer.alloc(0)).frames).toEqual([]);
  });

  test('RawTtyDecoder passes chunks through with their stream offsets, and never fails at end', () => {
    const decoder = new RawTtyDecoder();
    expect(decoder.push(Buffer.from('ab'))).toEqual([{ stream: 'stdout', payload: Buffer.from('ab'), offset: 0 }]);
    expect(decoder.push(Buffer.alloc(0))).toEqual([]);
    expect(decoder.push(Buffer.from([1, 0, 0]))).toEqual([{ stream: 'stdout', payload: Buffer.from([1, 0, 0]), offset: 2 }]);
    expect(() => decoder.end()).not.toThrow();
  });

  test('the Tty flag picks the decoder', () => {
    expect(createStreamDecoder({ tty: true })).toBeInstanceOf(RawTtyDecoder);
    expect(createStreamDecoder({ tty: false })).toBeInstanceOf(FrameDecoder);
    expect(decodeStreamBody(framed, { tty: true }).stdout.equals(framed)).toBe(true);
    expect(decodeStreamBody(framed, { tty: false }).stdout.toString()).toBe('one\nechoed\ntwo\n');
  });
});

describe('demuxStream', () => {
  const chunksOf = (body: Buffer, size: number) => Array.from({ length: Math.ceil(body.length / size) }, (_, i) => body.subarray(i * size, (i + 1) * size));

  test('writes stdout and stdin payloads to stdout, stderr to stderr, from any chunking', async () => {
    for (const size of [1, 5, framed.length]) {
      const stdout = collector();
      const stderr = collector();
      await demuxStream(Readable.from(chunksOf(framed, size)), { stdout: stdout.writable, stderr: stderr.writable });
      expect([stdout.text(), stderr.text()], `chunks of ${size}`).toEqual(['one\nechoed\ntwo\n', 'oops\n']);
    }
  });

  test('waits for a slow output instead of piling up writes', async () => {
    const stdout = collector({ slow: true });
    const stderr = collector();
    await demuxStream(Readable.from(chunksOf(framed, 12)), { stdout: stdout.writable, stderr: stderr.writable });
    await nextTurn();
    expect(stdout.text()).toBe('one\nechoed\ntwo\n');
    // Waiting for 'drain' after each chunk: never more queued than one chunk's payload ('echoed\n').
    expect(stdout.seen.mostQueued).toBeLessThanOrEqual(7);
  });

  test('rejects a stream that ends inside a frame, after writing the frames before it', async () => {
    const stdout = collector();
    const result = demuxStream(Readable.from([framed.subarray(0, framed.length - 2)]), { stdout: stdout.writable, stderr: collector().writable });
    await expect(result).rejects.toThrow(FrameError);
    await expect(result).rejects.toMatchObject({ kind: 'truncated', missing: 2 });
    expect(stdout.text()).toBe('one\nechoed\n');
  });

  test('rejects a bad header, after writing the frames of the same chunk before it', async () => {
    const body = Buffer.concat([framed, Buffer.from('plain text')]);
    const stdout = collector();
    await expect(demuxStream(Readable.from([body]), { stdout: stdout.writable, stderr: collector().writable }))
      .rejects.toMatchObject({ kind: 'unknown-stream-type', offset: framed.length });
    expect(stdout.text()).toBe('one\nechoed\ntwo\n');
  });

  test('with a Tty everything goes to stdout as is', async () => {
    const stdout = collector();
    const stderr = collector();
    await demuxStream(Readable.from(chunksOf(framed, 7)), { stdout: stdout.writable, stderr: stderr.writable }, { tty: true });
    expect(stdout.text()).toBe(framed.toString());
    expect(stderr.text()).toBe('');
  });
});
