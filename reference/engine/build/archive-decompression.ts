/**
 * Archives as dockerd's DecompressStream reads them: the compression is told by the magic bytes, not
 * by a name or a header, and anything without a known magic is taken as it is (a plain tar). gzip
 * with node:zlib; bzip2 and xz with pure-JS and wasm decoders (no native build).
 */
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import Bunzip from 'seek-bzip';
import xzDecompress from 'xz-decompress';
import { MAX_UNCOMPRESSED_BYTES } from '../filesystem/tar-io.ts';

export type Compression = 'none' | 'gzip' | 'bzip2' | 'xz';

const MAGIC: Array<[Exclude<Compression, 'none'>, Buffer]> = [
  ['bzip2', Buffer.from('BZh')],
  ['gzip', Buffer.from([0x1f, 0x8b, 0x08])],
  ['xz', Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])],
];

/** An archive its compression cannot be undone for: a corrupt or truncated stream. */
export class DecompressionError extends Error {
  override name = 'DecompressionError';
}

export function compressionOf(bytes: Buffer): Compression {
  return MAGIC.find(([, magic]) => bytes.subarray(0, magic.length).equals(magic))?.[0] ?? 'none';
}

/** The bytes uncompressed (the same buffer when they are not compressed). */
export async function decompress(bytes: Buffer): Promise<Buffer> {
  const compression = compressionOf(bytes);
  try {
    switch (compression) {
      case 'none':
        return bytes;
      case 'gzip':
        return await promisify(gunzip)(bytes, { maxOutputLength: MAX_UNCOMPRESSED_BYTES });
      case 'bzip2':
        return Bunzip.decode(bytes);
      case 'xz':
        return await unxz(bytes);
    }
  } catch (error) {
    throw new DecompressionError(`${compression}: ${(error as Error).message}`);
  }
}

async function unxz(bytes: Buffer): Promise<Buffer> {
  const compressed = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  const stream = new xzDecompress.XzReadableStream(compressed);
  return Buffer.from(await new Response(stream).arrayBuffer());
}
