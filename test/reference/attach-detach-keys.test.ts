/** Detach keys: dockerd's key syntax, and finding the sequence in input however it is chunked. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DEFAULT_DETACH_KEYS, DetachKeyMatcher, parseDetachKeys } from '../../reference/engine/model/containers/detach-keys.ts';

const seed = Number(process.env.SHIPSHAPE_SEED ?? 424242);

describe('parseDetachKeys', () => {
  test('single characters and ctrl- names become their bytes, comma-separated', () => {
    expect(parseDetachKeys('ctrl-p,ctrl-q')).toEqual(DEFAULT_DETACH_KEYS);
    expect(parseDetachKeys('ctrl-x')).toEqual(Buffer.from([0x18]));
    expect(parseDetachKeys('a,ctrl-@,ctrl-[,ctrl-_,DEL')).toEqual(Buffer.from([0x61, 0, 27, 31, 127]));
  });

  test('anything else is refused', () => {
    expect(parseDetachKeys('ctrl-')).toBeUndefined();
    expect(parseDetachKeys('bogus-key')).toBeUndefined();
    expect(parseDetachKeys('ctrl-p,')).toBeUndefined();
    expect(parseDetachKeys('ctrl-P')).toBeUndefined();
  });
});

/** Feeds the chunks in turn; what reached the process, and whether (and where) it detached. */
function scan(keys: Buffer, chunks: Buffer[]): { forwarded: Buffer; detached: boolean } {
  const matcher = new DetachKeyMatcher(keys);
  const forwarded: Buffer[] = [];
  for (const chunk of chunks) {
    const { forward, detached } = matcher.push(chunk);
    forwarded.push(forward);
    if (detached) return { forwarded: Buffer.concat(forwarded), detached };
  }
  return { forwarded: Buffer.concat(forwarded), detached: false };
}

/** Splits `data` at the given (sorted, deduplicated) offsets. */
function chunked(data: Buffer, cuts: number[]): Buffer[] {
  const offsets = [...new Set(cuts.map((cut) => cut % (data.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const offset of [...offsets, data.length]) {
    chunks.push(data.subarray(start, offset));
    start = offset;
  }
  return chunks;
}

describe('DetachKeyMatcher', () => {
  test('input without the sequence passes through, a held prefix included once it is not the sequence', () => {
    expect(scan(DEFAULT_DETACH_KEYS, [Buffer.from('ab\x10c')])).toEqual({ forwarded: Buffer.from('ab\x10c'), detached: false });
    expect(scan(DEFAULT_DETACH_KEYS, [Buffer.from('ab\x10'), Buffer.from('c')])).toEqual({ forwarded: Buffer.from('ab\x10c'), detached: false });
  });

  test('the sequence detaches: what came before it goes on, the keys and what follows do not', () => {
    expect(scan(DEFAULT_DETACH_KEYS, [Buffer.from('hi\x10'), Buffer.from('\x11after')])).toEqual({ forwarded: Buffer.from('hi'), detached: true });
  });

  test('a repeated first key restarts the match instead of being lost', () => {
    expect(scan(DEFAULT_DETACH_KEYS, [Buffer.from('\x10\x10\x11')])).toEqual({ forwarded: Buffer.from('\x10'), detached: true });
  });

  test(`property (seed ${seed}): however the input is chunked, the process gets what precedes the first sequence, and it detaches iff there is one`, () => {
    const bytes = fc.uint8Array({ maxLength: 40 }).map((array) => Buffer.from(array.map((byte) => [0x10, 0x11, 0x61][byte % 3] as number)));
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(), { maxLength: 8 }), (input, cuts) => {
        const at = input.indexOf(DEFAULT_DETACH_KEYS);
        // Without the sequence, a trailing ctrl-p is still held: it may yet start one.
        const held = input.at(-1) === 0x10 ? 1 : 0;
        const expected = at < 0 ? { forwarded: input.subarray(0, input.length - held), detached: false } : { forwarded: input.subarray(0, at), detached: true };
        expect(scan(DEFAULT_DETACH_KEYS, chunked(input, cuts))).toEqual(expected);
      }),
      { seed, numRuns: 500 },
    );
  });
});
