/**
 * The build contexts the checks compress must decompress to the same bytes: through the decoders the
 * reference's build uses, and through the system's bzip2 and xz where the machine has them (dockerd
 * reads bzip2 with Go's decoder and xz with the xz program). The property's seed comes from
 * SHIPSHAPE_SEED (default fixed) and is in its name.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compress } from '../../suites/build/context-compression.ts';
import { compressionOf, decompress } from '../../reference/engine/filesystem/archive-decompression.ts';

const seed = Number(process.env.SHIPSHAPE_SEED ?? 424242);

/** Whether the machine has the program (its decoder is the second opinion). */
function hasProgram(name: string): boolean {
  try {
    execFileSync(name, ['--help'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const SAMPLES: Record<string, Buffer> = {
  empty: Buffer.alloc(0),
  'one byte': Buffer.from('a'),
  'long runs (the first run-length step)': Buffer.concat([Buffer.alloc(1000, 0), Buffer.from('xyz'), Buffer.alloc(300, 0x41), Buffer.from('aaaa')]),
  'periodic (equal rotations)': Buffer.from('abcabcabcabcabcabc'),
  'more than one LZMA2 chunk (64 KiB)': Buffer.from(Array.from({ length: 70_000 }, (_, index) => (index * 7919) % 251)),
};

describe.each(['bzip2', 'xz'] as const)('%s', (how) => {
  test.each(Object.entries(SAMPLES))('%s comes back whole through the reference decoder', async (_, data) => {
    const packed = compress(data, how);
    expect(compressionOf(packed)).toBe(how);
    expect(Buffer.compare(await decompress(packed), data)).toBe(0);
  });

  test.skipIf(!hasProgram(how))(`the ${how} program reads it back`, () => {
    for (const data of Object.values(SAMPLES)) {
      expect(Buffer.compare(execFileSync(how, ['-dc'], { input: compress(data, how) }), data)).toBe(0);
    }
  });

  test(`any bytes come back whole (seed ${seed})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), fc.constantFrom(0, 1, 2), async (bytes, shape) => {
        // Runs and repeats are where the encoders' corners are: stretch some bytes into runs.
        const data = shape === 0 ? Buffer.from(bytes) : Buffer.from(Array.from(bytes).flatMap((byte) => Array<number>(shape === 1 ? (byte % 7) + 1 : 4).fill(byte)));
        expect(Buffer.compare(await decompress(compress(data, how)), data)).toBe(0);
      }),
      { seed, numRuns: 60 },
    );
  });
});
