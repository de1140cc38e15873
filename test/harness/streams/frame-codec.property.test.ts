/**
 * Properties of the frame codec over random frame sequences cut into random chunks. The seed comes
 * from SHIPSHAPE_SEED (default fixed) and is in each test's name, so a failure reproduces with
 * `SHIPSHAPE_SEED=<seed> npx vitest run --project unit test/harness/streams`.
 *
 * Bodies are built here byte by byte from the spec, not with the encoder under test, so that a
 * mistake shared by encoder and decoder cannot cancel out.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { decodeFrames, FrameDecoder } from '../../../harness/streams/frame-decoder.ts';
import { encodeFrame, frameChunks } from '../../../protocol/frame-encoder.ts';
import { FrameError, STREAM_NAMES, type DecodedFrame, type StreamName } from '../../../protocol/stream-types.ts';

const seed = Number(process.env.SHIPSHAPE_SEED ?? 424242);
const withSeed = (name: string) => `${name} (seed ${seed})`;

interface FrameSpec {
  stream: StreamName;
  payload: Buffer;
}

const specHeader = (type: number, size: number) => Buffer.from([type, 0, 0, 0, (size >>> 24) & 0xff, (size >>> 16) & 0xff, (size >>> 8) & 0xff, size & 0xff]);
const bodyOf = (frames: FrameSpec[]) => Buffer.concat(frames.flatMap((f) => [specHeader(STREAM_NAMES.indexOf(f.stream), f.payload.length), f.payload]));
const offsetsOf = (frames: FrameSpec[]) => frames.reduce<number[]>((offsets, f, i) => [...offsets, i === 0 ? 0 : (offsets[i - 1] ?? 0) + 8 + (frames[i - 1]?.payload.length ?? 0)], []);

/** Sizes 0..64 KiB, weighted towards the small ones; content is a random pattern so frames differ. */
const payload = (maxSize: number) => fc
  .tuple(
    fc.oneof(
      { weight: 2, arbitrary: fc.constant(0) },
      { weight: 5, arbitrary: fc.integer({ min: 1, max: Math.min(40, maxSize) }) },
      { weight: 2, arbitrary: fc.integer({ min: 0, max: maxSize }) },
    ),
    fc.uint8Array({ minLength: 1, maxLength: 16 }),
  )
  .map(([size, pattern]) => Buffer.alloc(size, Buffer.from(pattern)));

const frameSpec = (maxSize = 64 * 1024) => fc.record({ stream: fc.constantFrom(...STREAM_NAMES), payload: payload(maxSize) });
const frameSpecs = (maxSize?: number) => fc.array(frameSpec(maxSize), { maxLength: 24 });
/** Cut points as fractions of the body, so they scale to any body; repeats make empty chunks, which are legal too. */
const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 });

/** Cuts `body` at the given points into fresh buffers, as a socket would deliver it. */
function split(body: Buffer, at: number[]): Buffer[] {
  const points = [...at.map((p) => Math.floor(p * body.length)), body.length].sort((a, b) => a - b);
  let start = 0;
  return points.map((end) => {
    const piece = Buffer.from(body.subarray(start, end));
    start = end;
    return piece;
  });
}

function pushAll(decoder: FrameDecoder, chunks: Buffer[]): DecodedFrame[] {
  const frames: DecodedFrame[] = [];
  for (const chunk of chunks) for (const frame of decoder.push(chunk)) frames.push(frame);
  return frames;
}

/** The first difference between decoded and expected frames, in words; undefined when they agree. */
function firstDifference(decoded: DecodedFrame[], expected: FrameSpec[]): string | undefined {
  const offsets = offsetsOf(expected);
  for (let i = 0; i < Math.max(decoded.length, expected.length); i += 1) {
    const got = decoded[i];
    const want = expected[i];
    if (!got || !want) return `decoded ${decoded.length} frames, expected ${expected.length}`;
    if (got.stream !== want.stream) return `frame ${i}: stream ${got.stream}, expected ${want.stream}`;
    if (!got.payload.equals(want.payload)) return `frame ${i}: ${got.payload.length}-byte payload differs from the expected ${want.payload.length} bytes`;
    if (got.offset !== offsets[i]) return `frame ${i}: offset ${got.offset}, expected ${offsets[i]}`;
  }
  return undefined;
}

const joined = (frames: FrameSpec[], which: (stream: StreamName) => boolean) => Buffer.concat(frames.filter((f) => which(f.stream)).map((f) => f.payload));

function caught(action: () => unknown): FrameError | undefined {
  try {
    action();
  } catch (error) {
    if (error instanceof FrameError) return error;
    throw error;
  }
  return undefined;
}

describe('frame codec properties', () => {
  test(withSeed('any frames, cut anywhere, decode to the same frames and the same stdout/stderr'), () => {
    fc.assert(
      fc.property(frameSpecs(), cuts, (frames, at) => {
        const decoder = new FrameDecoder();
        const decoded = pushAll(decoder, split(bodyOf(frames), at));
        decoder.end();
        expect(firstDifference(decoded, frames)).toBeUndefined();
        const whole = decodeFrames(bodyOf(frames));
        expect(whole.stdout.equals(joined(frames, (s) => s !== 'stderr')), 'stdout = stdin and stdout payloads in order').toBe(true);
        expect(whole.stderr.equals(joined(frames, (s) => s === 'stderr')), 'stderr = stderr payloads in order').toBe(true);
      }),
      { seed },
    );
  });

  test(withSeed('a byte at a time: every header split at every position'), () => {
    fc.assert(
      fc.property(frameSpecs(48), (frames) => {
        const body = bodyOf(frames);
        const decoder = new FrameDecoder();
        const decoded = pushAll(decoder, Array.from(body, (byte) => Buffer.from([byte])));
        decoder.end();
        expect(firstDifference(decoded, frames)).toBeUndefined();
      }),
      { seed },
    );
  });

  test(withSeed('cuts inside headers: each header split at a random inner point'), () => {
    const framesAndCuts = frameSpecs().chain((frames) => fc.tuple(fc.constant(frames), fc.array(fc.integer({ min: 1, max: 7 }), { minLength: frames.length, maxLength: frames.length })));
    fc.assert(
      fc.property(framesAndCuts, ([frames, inner]) => {
        const body = bodyOf(frames);
        const points = offsetsOf(frames).map((offset, i) => (offset + (inner[i] ?? 1)) / body.length);
        const decoder = new FrameDecoder();
        const decoded = pushAll(decoder, split(body, points));
        decoder.end();
        expect(firstDifference(decoded, frames)).toBeUndefined();
      }),
      { seed },
    );
  });

  test(withSeed('the encoder writes exactly the spec layout, and its two-piece form is the same bytes'), () => {
    fc.assert(
      fc.property(frameSpec(), ({ stream, payload }) => {
        const expected = bodyOf([{ stream, payload }]);
        expect(encodeFrame(stream, payload).equals(expected)).toBe(true);
        expect(Buffer.concat(frameChunks(stream, payload)).equals(expected)).toBe(true);
      }),
      { seed },
    );
  });

  test(withSeed('an unknown stream type or nonzero bytes 1–3 is rejected at that header, after the good frames before it'), () => {
    const badHeader = fc.oneof(
      fc.tuple(fc.integer({ min: 3, max: 255 }), fc.constant([0, 0, 0])),
      fc.tuple(fc.integer({ min: 0, max: 2 }), fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).filter((bytes) => bytes.some((b) => b !== 0))),
    ).map(([type, reserved]) => ({ type, header: Buffer.from([type, ...reserved, 0, 0, 0, 4]) }));
    fc.assert(
      fc.property(frameSpecs(4096), badHeader, fc.uint8Array({ maxLength: 64 }), cuts, (good, bad, trailing, at) => {
        const goodBody = bodyOf(good);
        const decoder = new FrameDecoder();
        const before: DecodedFrame[] = [];
        const error = caught(() => {
          for (const chunk of split(Buffer.concat([goodBody, bad.header, trailing]), at)) for (const frame of decoder.push(chunk)) before.push(frame);
        });
        expect(error, 'a FrameError from push').toBeInstanceOf(FrameError);
        expect(error?.kind).toBe(bad.type > 2 ? 'unknown-stream-type' : 'reserved-bytes');
        expect(error?.offset).toBe(goodBody.length);
        expect(error?.message).toContain(`frame header at byte ${goodBody.length}:`);
        expect(firstDifference([...before, ...(error?.framesBefore ?? [])], good), 'frames before the bad header').toBeUndefined();
      }),
      { seed },
    );
  });

  test(withSeed('a body cut inside its last frame is reported at end(), with the bytes missing'), () => {
    const truncated = fc.array(frameSpec(4096), { minLength: 1, maxLength: 12 }).chain((frames) => {
      // Drop from 1 byte up to all but one byte of the last frame, so that the body ends inside it.
      const lastLength = 8 + (frames[frames.length - 1]?.payload.length ?? 0);
      return fc.tuple(fc.constant(frames), fc.integer({ min: 1, max: lastLength - 1 }));
    });
    fc.assert(
      fc.property(truncated, cuts, ([frames, short], at) => {
        const body = bodyOf(frames);
        const lastOffset = offsetsOf(frames)[frames.length - 1] ?? 0;
        const arrived = body.length - short - lastOffset;
        const decoder = new FrameDecoder();
        const decoded = pushAll(decoder, split(body.subarray(0, body.length - short), at));
        expect(firstDifference(decoded, frames.slice(0, -1)), 'every complete frame before end()').toBeUndefined();
        const error = caught(() => decoder.end());
        expect(error?.kind).toBe('truncated');
        expect(error?.offset).toBe(lastOffset);
        // Within the header only the header's missing bytes are known; past it, the payload's.
        expect(error?.missing).toBe(arrived < 8 ? 8 - arrived : short);
      }),
      { seed },
    );
  });
});
