import { describe, expect, test } from 'vitest';
import { decodeFrames, FrameDecoder } from '../../../harness/streams/frame-decoder.ts';
import { FrameError, type DecodedFrame } from '../../../protocol/stream-types.ts';

/** Frames written out by hand, independently of the encoder under test. */
function frame(type: number, payload: Buffer | string): Buffer {
  const bytes = Buffer.from(payload);
  const header = Buffer.alloc(8);
  header[0] = type;
  header.writeUInt32BE(bytes.length, 4);
  return Buffer.concat([header, bytes]);
}

/** What `docker logs` of `sh -c 'echo out; echo err >&2'` sends. */
const OUT_ERR = Buffer.from('\x01\x00\x00\x00\x00\x00\x00\x04out\n\x02\x00\x00\x00\x00\x00\x00\x04err\n', 'latin1');

const shown = (frames: DecodedFrame[]) => frames.map((f) => ({ stream: f.stream, text: f.payload.toString('latin1'), offset: f.offset }));

function pushAll(decoder: FrameDecoder, chunks: Buffer[]): DecodedFrame[] {
  const frames: DecodedFrame[] = [];
  for (const chunk of chunks) for (const decoded of decoder.push(chunk)) frames.push(decoded);
  return frames;
}

function caught(action: () => unknown): FrameError {
  try {
    action();
  } catch (error) {
    if (error instanceof FrameError) return error;
    throw error;
  }
  throw new Error('expected a FrameError, nothing was thrown');
}

const bytesOf = (body: Buffer, size: number) => Array.from({ length: Math.ceil(body.length / size) }, (_, i) => body.subarray(i * size, (i + 1) * size));

describe('FrameDecoder', () => {
  test('decodes a body as a daemon sends it, whole or a byte at a time', () => {
    const expected = [{ stream: 'stdout', text: 'out\n', offset: 0 }, { stream: 'stderr', text: 'err\n', offset: 12 }];
    expect(shown(new FrameDecoder().push(OUT_ERR))).toEqual(expected);
    const decoder = new FrameDecoder();
    expect(shown(pushAll(decoder, bytesOf(OUT_ERR, 1)))).toEqual(expected);
    expect(() => decoder.end()).not.toThrow();
  });

  test('a header split at each of its seven inner positions', () => {
    const body = Buffer.concat([frame(1, 'ab'), frame(2, 'cd')]);
    for (let cut = 11; cut <= 17; cut += 1) {
      const decoder = new FrameDecoder();
      const first = decoder.push(body.subarray(0, cut));
      expect(shown(first), `cut at ${cut}`).toEqual([{ stream: 'stdout', text: 'ab', offset: 0 }]);
      expect(decoder.bytesPending, `cut at ${cut}`).toBe(cut - 10);
      expect(shown(decoder.push(body.subarray(cut))), `cut at ${cut}`).toEqual([{ stream: 'stderr', text: 'cd', offset: 10 }]);
      decoder.end();
    }
  });

  test('zero-length payloads: alone, in a row, and as the last bytes of a chunk', () => {
    const body = Buffer.concat([frame(1, ''), frame(2, ''), frame(1, 'x'), frame(2, '')]);
    expect(shown(new FrameDecoder().push(body))).toEqual([
      { stream: 'stdout', text: '', offset: 0 },
      { stream: 'stderr', text: '', offset: 8 },
      { stream: 'stdout', text: 'x', offset: 16 },
      { stream: 'stderr', text: '', offset: 25 },
    ]);
    // The empty frame is complete the moment its header is: it must not wait for the next chunk.
    const decoder = new FrameDecoder();
    expect(decoder.push(frame(2, '').subarray(0, 5))).toEqual([]);
    expect(shown(decoder.push(frame(2, '').subarray(5)))).toEqual([{ stream: 'stderr', text: '', offset: 0 }]);
    expect(decoder.bytesPending).toBe(0);
  });

  test('a 1 MiB payload, whole, in 64 KiB chunks, and in odd 1000-byte chunks', () => {
    const payload = Buffer.alloc(1 << 20);
    for (let i = 0; i < payload.length; i += 1) payload[i] = (i * 31 + (i >>> 11)) & 0xff;
    const body = Buffer.concat([frame(2, payload), frame(1, 'tail')]);
    for (const size of [body.length, 64 * 1024, 1000]) {
      const decoder = new FrameDecoder();
      const chunks = bytesOf(body, size);
      const frames = pushAll(decoder, chunks);
      decoder.end();
      expect(frames.map((f) => [f.stream, f.payload.length, f.offset]), `chunks of ${size}`).toEqual([['stderr', 1 << 20, 0], ['stdout', 4, 8 + (1 << 20)]]);
      expect(frames[0]?.payload.equals(payload), `chunks of ${size}: payload bytes`).toBe(true);
    }
  });

  test('the big frame comes out only when its last byte arrives', () => {
    const body = frame(1, Buffer.alloc(100_000, 7));
    const decoder = new FrameDecoder();
    expect(decoder.push(body.subarray(0, 50_000))).toEqual([]);
    expect(decoder.push(body.subarray(50_000, body.length - 1))).toEqual([]);
    expect(decoder.bytesPending).toBe(body.length - 1);
    expect(decoder.push(body.subarray(body.length - 1))).toHaveLength(1);
    expect(decoder.bytesDecoded).toBe(body.length);
  });

  test('a frame inside one chunk is a view of that chunk, not a copy', () => {
    const chunk = Buffer.concat([frame(1, 'abc'), frame(2, 'defg')]);
    const [first, second] = new FrameDecoder().push(chunk);
    expect(first?.payload.buffer).toBe(chunk.buffer);
    expect(first?.payload.byteOffset).toBe(chunk.byteOffset + 8);
    expect(second?.payload.byteOffset).toBe(chunk.byteOffset + 19);
  });

  test('an unknown stream type is rejected with its offset', () => {
    const body = Buffer.concat([frame(1, 'ok'), frame(3, 'bad')]);
    const error = caught(() => new FrameDecoder().push(body));
    expect(error.kind).toBe('unknown-stream-type');
    expect(error.offset).toBe(10);
    expect(error.message).toMatch(/^frame header at byte 10: unknown stream type 3 \(expected 0 stdin, 1 stdout or 2 stderr\); header 03 00 00 00 00 00 00 03/);
    expect(shown(error.framesBefore)).toEqual([{ stream: 'stdout', text: 'ok', offset: 0 }]);
    expect(caught(() => new FrameDecoder().push(frame(0xff, ''))).message).toMatch(/unknown stream type 255/);
  });

  test('nonzero bytes 1–3 are rejected, whichever of them is set', () => {
    for (const index of [1, 2, 3]) {
      const body = Buffer.concat([frame(2, 'ok'), frame(1, 'x')]);
      body[10 + index] = 0x40;
      const error = caught(() => new FrameDecoder().push(body));
      expect(error.kind, `byte ${index}`).toBe('reserved-bytes');
      expect(error.offset, `byte ${index}`).toBe(10);
      expect(error.message, `byte ${index}`).toContain('frame header at byte 10: bytes 1–3 must be zero');
    }
  });

  test('a bad header split across chunks is still caught, at the right offset', () => {
    const body = Buffer.concat([frame(1, 'abc'), frame(7, 'x')]);
    const decoder = new FrameDecoder();
    expect(shown(decoder.push(body.subarray(0, 13)))).toEqual([{ stream: 'stdout', text: 'abc', offset: 0 }]);
    const error = caught(() => decoder.push(body.subarray(13)));
    expect([error.kind, error.offset]).toEqual(['unknown-stream-type', 11]);
    expect(error.framesBefore).toEqual([]);
  });

  test('text where a header belongs hints at an unframed Tty stream', () => {
    const error = caught(() => decodeFrames(Buffer.from('hello world\r\n')));
    expect(error.message).toMatch(/unknown stream type 104 .*"hello wo".*unframed \(Tty\) stream/);
  });

  test('after an error every push and end repeats it: nothing after a bad header is aligned', () => {
    const decoder = new FrameDecoder();
    const error = caught(() => decoder.push(frame(9, 'x')));
    expect(caught(() => decoder.push(frame(1, 'fine')))).toBe(error);
    expect(caught(() => decoder.end())).toBe(error);
  });

  test('end() inside a payload reports the frame and how many bytes are missing', () => {
    const decoder = new FrameDecoder();
    const body = Buffer.concat([frame(1, 'done'), frame(2, 'x'.repeat(100))]);
    expect(pushAll(decoder, [body.subarray(0, 30), body.subarray(30, body.length - 60)])).toHaveLength(1);
    const error = caught(() => decoder.end());
    expect([error.kind, error.offset, error.missing]).toEqual(['truncated', 12, 60]);
    expect(error.message).toBe('stream ended inside the stderr frame at byte 12: 40 of its 100 payload bytes arrived, 60 missing');
  });

  test('end() inside a header reports the header bytes missing', () => {
    const decoder = new FrameDecoder();
    decoder.push(Buffer.concat([frame(1, 'a'), Buffer.from([2, 0, 0])]));
    const error = caught(() => decoder.end());
    expect([error.kind, error.offset, error.missing]).toEqual(['truncated', 9, 5]);
    expect(error.message).toContain('3 of 8 header bytes arrived (02 00 00), 5 missing');
  });

  test('end() right after a header whose payload never came', () => {
    const decoder = new FrameDecoder();
    decoder.push(Buffer.from([1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]));
    expect(caught(() => decoder.end()).missing).toBe(0xffff_ffff);
  });

  test('end() on a frame boundary or an empty stream is fine; push after end is a mistake', () => {
    const decoder = new FrameDecoder();
    decoder.push(Buffer.alloc(0));
    expect(() => decoder.end()).not.toThrow();
    expect(() => decoder.push(frame(1, 'late'))).toThrow(/push after end/);
    expect(decodeFrames(Buffer.alloc(0))).toEqual({ stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), frames: [] });
  });
});

describe('decodeFrames', () => {
  test('joins each stream and writes stdin frames to stdout, keeping their type', () => {
    const body = Buffer.concat([frame(1, 'a'), frame(0, 'b'), frame(2, 'c'), frame(1, 'd'), frame(2, 'e')]);
    const { stdout, stderr, frames } = decodeFrames(body);
    expect(stdout.toString()).toBe('abd');
    expect(stderr.toString()).toBe('ce');
    expect(frames.map((f) => f.stream)).toEqual(['stdout', 'stdin', 'stderr', 'stdout', 'stderr']);
  });

  test('a truncated body is an error, not a short result', () => {
    expect(() => decodeFrames(OUT_ERR.subarray(0, OUT_ERR.length - 1))).toThrow(/stream ended inside the stderr frame at byte 12: 3 of its 4 payload bytes arrived, 1 missing/);
  });
});
