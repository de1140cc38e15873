/**
 * Archives as dockerd's DecompressStream reads them: the compression is told by the magic bytes, not
 * by a name or a header, and anything without a known magic is taken as it is (a plain tar). gzip
 * with node:zlib off the event loop; bzip2 and xz with pure-JS and wasm decoders in a worker thread
 * (decompression-worker.ts). Every output is bounded: a few KiB can say gigabytes of zeros, and the
 * tar is held in memory.
 */
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { gunzip } from 'node:zlib';
import type { DecompressionAnswer, DecompressionJob } from './decompression-worker.ts';

export type Compression = 'none' | 'gzip' | 'bzip2' | 'xz';

/** The most a compressed tar may expand to (README, Limits). */
export const MAX_UNCOMPRESSED_BYTES = 1024 ** 3;

/** zlib's thread pool, not the event loop. */
const gunzipAsync = promisify(gunzip);

const MAGIC: Array<[Exclude<Compression, 'none'>, Buffer]> = [
  ['bzip2', Buffer.from('BZh')],
  ['gzip', Buffer.from([0x1f, 0x8b, 0x08])],
  ['xz', Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])],
];

/** An archive its compression cannot be undone for: a corrupt or truncated stream, or one that expands past the limit. */
export class DecompressionError extends Error {
  override name = 'DecompressionError';
}

export function compressionOf(bytes: Buffer): Compression {
  return MAGIC.find(([, magic]) => bytes.subarray(0, magic.length).equals(magic))?.[0] ?? 'none';
}

/** The bytes uncompressed (the same buffer when they are not compressed), at most `limit` of them. */
export async function decompress(bytes: Buffer, limit = MAX_UNCOMPRESSED_BYTES): Promise<Buffer> {
  const compression = compressionOf(bytes);
  try {
    switch (compression) {
      case 'none':
        return bytes;
      case 'gzip':
        return await gunzipAsync(bytes, { maxOutputLength: limit });
      case 'bzip2':
      case 'xz':
        return await inWorker({ compression, bytes, limit });
    }
  } catch (error) {
    throw new DecompressionError(`${compression}: ${(error as Error).message}`);
  }
}

/**
 * The worker runs TypeScript as the CLI does: tsx is registered in it first (a worker does not
 * inherit the registration of the thread that starts it).
 */
const WORKER_BOOT = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then(({ register }) => { register(); return import(${JSON.stringify(new URL('./decompression-worker.ts', import.meta.url).href)}); });`;

interface Waiting {
  resolve: (bytes: Buffer) => void;
  reject: (error: Error) => void;
}

/** One worker for the process, started at the first bzip2 or xz archive; it holds the process open only while it has work. */
let worker: Worker | undefined;
const waiting = new Map<number, Waiting>();
let nextJob = 0;

function decompressionWorker(): Worker {
  if (worker !== undefined) return worker;
  const started = new Worker(WORKER_BOOT, { eval: true });
  const stopped = (error: Error) => {
    if (worker === started) worker = undefined;
    for (const job of waiting.values()) job.reject(error);
    waiting.clear();
  };
  started.on('message', (answer: DecompressionAnswer) => {
    const job = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (waiting.size === 0) started.unref();
    if ('error' in answer) job?.reject(new Error(answer.error));
    else job?.resolve(Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength));
  });
  started.once('error', stopped);
  started.once('exit', (code) => stopped(new Error(`the decompression worker stopped (exit code ${code})`)));
  worker = started;
  return started;
}

function inWorker(job: Omit<DecompressionJob, 'id'>): Promise<Buffer> {
  const id = nextJob++;
  const running = decompressionWorker();
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    running.ref();
    running.postMessage({ ...job, id } satisfies DecompressionJob);
  });
}
