/**
 * Writing multiplexed frames (spec/1 §4.4). The reference uses this to send attach, logs and exec
 * output; tests use it to build bodies. Payloads are never copied on the streaming paths: the header
 * goes out as its own small buffer next to the payload, and a corked socket sends both in one writev.
 */
import { Transform, type TransformCallback, type Writable } from 'node:stream';
import {
  FRAME_HEADER_LENGTH,
  MAX_FRAME_PAYLOAD_LENGTH,
  STREAM_NAMES,
  type StreamName,
  type StreamTypeCode,
} from './stream-types.ts';

export type FrameStream = StreamName | StreamTypeCode;

/** The type byte for a stream; throws for anything but stdin/stdout/stderr (or 0/1/2). */
export function streamTypeCode(stream: FrameStream): StreamTypeCode {
  if (typeof stream === 'number') {
    // The type says 0|1|2, but callers reach here with numbers from the wire or from casts.
    if (stream === 0 || stream === 1 || stream === 2) return stream;
  } else {
    const code = STREAM_NAMES.indexOf(stream);
    if (code >= 0) return code as StreamTypeCode;
  }
  throw new RangeError(`not a frame stream type: ${JSON.stringify(stream)} (stdin/0, stdout/1, stderr/2)`);
}

function checkedLength(length: number): number {
  if (length > MAX_FRAME_PAYLOAD_LENGTH) {
    throw new RangeError(`a frame payload is at most ${MAX_FRAME_PAYLOAD_LENGTH} bytes (32-bit size field); got ${length}: split it into several frames`);
  }
  return length;
}

function writeHeader(target: Buffer, code: StreamTypeCode, payloadLength: number): void {
  // One big-endian 32-bit write puts the type in byte 0 and zeroes bytes 1–3 (allocUnsafe memory is not zeroed).
  target.writeUInt32BE(code * 0x100_0000, 0);
  target.writeUInt32BE(payloadLength, 4);
}

/** The 8-byte header of a frame carrying `payloadLength` bytes on `stream`. */
export function encodeFrameHeader(stream: FrameStream, payloadLength: number): Buffer {
  const header = Buffer.allocUnsafe(FRAME_HEADER_LENGTH);
  writeHeader(header, streamTypeCode(stream), checkedLength(payloadLength));
  return header;
}

/** One whole frame in one buffer (copies the payload; use frameChunks/writeFrame on hot paths). */
export function encodeFrame(stream: FrameStream, payload: Buffer): Buffer {
  const frame = Buffer.allocUnsafe(FRAME_HEADER_LENGTH + checkedLength(payload.length));
  writeHeader(frame, streamTypeCode(stream), payload.length);
  payload.copy(frame, FRAME_HEADER_LENGTH);
  return frame;
}

/** A frame as [header, payload] without copying the payload: hand both to writev. */
export function frameChunks(stream: FrameStream, payload: Buffer): [header: Buffer, payload: Buffer] {
  return [encodeFrameHeader(stream, payload.length), payload];
}

/**
 * Writes one frame to `destination` as header + payload, corked so that a socket sends them in one
 * writev. Returns what Writable.write returns: false means wait for 'drain'.
 */
export function writeFrame(destination: Writable, stream: FrameStream, payload: Buffer): boolean {
  const header = encodeFrameHeader(stream, payload.length);
  destination.cork();
  destination.write(header);
  const keepWriting = destination.write(payload);
  destination.uncork();
  return keepWriting;
}

/**
 * Frames everything written to it as one stream (`new FrameEncoder('stderr')`), for piping a process
 * output into a multiplexed connection. Empty writes produce no frame: a zero-length frame carries
 * nothing, and the daemon's own writer skips them too.
 */
export class FrameEncoder extends Transform {
  private readonly code: StreamTypeCode;

  constructor(stream: FrameStream) {
    super();
    this.code = streamTypeCode(stream);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (chunk.length === 0) {
      callback();
      return;
    }
    try {
      const header = Buffer.allocUnsafe(FRAME_HEADER_LENGTH);
      writeHeader(header, this.code, checkedLength(chunk.length));
      this.push(header);
      this.push(chunk);
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }
}
