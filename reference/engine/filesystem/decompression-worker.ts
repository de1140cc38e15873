/**
 * Undoes bzip2 or xz in a worker thread (archive-decompression.ts starts one and sends it every such
 * archive): both decoders are JavaScript or wasm that run to the end once started, so on the main
 * thread a few KiB that expand to a gigabyte would hold every server's event loop for seconds. The
 * output stops at the job's limit.
 */
import { parentPort } from 'node:worker_threads';
import Bunzip from 'seek-bzip';
import xzDecompress from 'xz-decompress';

export interface DecompressionJob {
  id: number;
  compression: 'bzip2' | 'xz';
  bytes: Uint8Array;
  /** the most the output may be, in bytes */
  limit: number;
}

export type DecompressionAnswer = { id: number } & ({ bytes: Uint8Array } | { error: string });

function tooLarge(limit: number): Error {
  return new Error(`the archive expands past ${limit} bytes`);
}

/**
 * seek-bzip's byte sink, growing by doubling up to the limit. Its buffers are never from Node's
 * shared pool (allocUnsafeSlow), so the answer's memory can be handed over to the other thread.
 */
class BoundedOutput {
  private buffer = Buffer.allocUnsafeSlow(64 * 1024);
  private length = 0;

  constructor(private readonly limit: number) {}

  writeByte(byte: number): void {
    if (this.length === this.buffer.length) this.grow();
    this.buffer[this.length++] = byte;
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  private grow(): void {
    if (this.length >= this.limit) throw tooLarge(this.limit);
    const larger = Buffer.allocUnsafeSlow(Math.min(this.buffer.length * 2, this.limit));
    this.buffer.copy(larger, 0, 0, this.length);
    this.buffer = larger;
  }
}

function bunzip(bytes: Buffer, limit: number): Buffer {
  const output = new BoundedOutput(limit);
  Bunzip.decode(bytes, output);
  return output.bytes();
}

async function unxz(bytes: Buffer, limit: number): Promise<Uint8Array> {
  const compressed = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  const reader = new xzDecompress.XzReadableStream(compressed).getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    length += read.value.length;
    if (length > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(read.value);
  }
  // its own memory, not a pooled slice: it is handed over to the other thread
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.length;
  }
  return joined;
}

async function run({ id, compression, bytes, limit }: DecompressionJob): Promise<DecompressionAnswer> {
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    return { id, bytes: compression === 'bzip2' ? bunzip(input, limit) : await unxz(input, limit) };
  } catch (error) {
    return { id, error: (error as Error).message };
  }
}

const port = parentPort;
port?.on('message', (job: DecompressionJob) => {
  void run(job).then((answer) => port.postMessage(answer, 'bytes' in answer ? [answer.bytes.buffer as ArrayBuffer] : []));
});
