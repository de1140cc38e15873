/**
 * Decompression is bounded and off the event loop (issue 16): an archive that expands past the
 * limit is refused whatever its compression, and decoding a large bzip2 or xz does not hold the
 * thread that answers requests.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { compress } from '../../../suites/build/context-compression.ts';
import { decompress, DecompressionError } from '../../../reference/engine/filesystem/archive-decompression.ts';

const MIB = 1024 * 1024;

/** 64 MiB of zeros as `bzip2 -9` (1.0.8) writes them: 80 bytes. */
const BZIP2_ZEROS_64_MIB = Buffer.from('QlpoOTFBWSZTWQ4J4t8BX45AAMAAAAggADCATUZCoCWpCoCXMUFZJlNZvAS1wwCidcAAwAAACCAAIKQINjKKiE0qKiE4u5IpwoSFALuD6A==', 'base64');

/** The longest the event loop went without turning while `work` ran (timer ticks every 5 ms). */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    const result = await work();
    return { result, stallMs };
  } finally {
    clearInterval(ticker);
  }
}

describe('decompress', () => {
  test.each([
    ['gzip', gzipSync(Buffer.alloc(2 * MIB))],
    ['bzip2', BZIP2_ZEROS_64_MIB],
    ['xz', compress(Buffer.alloc(2 * MIB), 'xz')],
  ])('%s past the limit is refused, naming it', async (name, archive) => {
    const refusal = decompress(archive, MIB);
    await expect(refusal).rejects.toThrow(DecompressionError);
    await expect(refusal).rejects.toThrow(new RegExp(`^${name}: `));
  });

  test('64 MiB of bzip2 come back whole while the event loop keeps turning (seek-bzip runs in a worker)', async () => {
    const { result, stallMs } = await longestStall(() => decompress(BZIP2_ZEROS_64_MIB));
    expect([result.length, result.every((byte) => byte === 0)]).toEqual([64 * MIB, true]);
    // on the main thread the decode held it for ~350 ms
    expect(stallMs).toBeLessThan(150);
  });
});
