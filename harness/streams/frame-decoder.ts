/**
 * Reading multiplexed frames (spec/1 §4.4) incrementally, from chunks cut anywhere: a header split
 * across chunks, many frames in one chunk, zero-length payloads, payloads of megabytes.
 *
 * Cost is linear in the bytes received. A frame that lies inside one chunk is returned as a view of
 * that chunk (no copy). Bytes of an unfinished frame wait as a list of views and are copied once,
 * into the payload, when the frame completes — never re-concatenated per chunk, which is what makes
 * naive demuxers quadratic when a chunk holds thousands of small frames.
 */
import {
  FRAME_HEADER_LENGTH,
  FrameError,
  STREAM_NAMES,
  type DecodedFrame,
  type DecodedStreams,
  type StreamDecoder,
  type StreamName,
  type StreamTypeCode,
} from '../../protocol/stream-types.ts';

const hex = (bytes: Buffer) => [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join(' ');

/**
 * The type byte and the three zero bytes read as one big-endian word: a good header's word is the
 * type times 2^24 with the low 24 bits zero, so two cheap tests validate all four bytes on the hot path.
 */
const isBadHeaderWord = (word: number) => word > 0x0200_0000 || (word & 0x00ff_ffff) !== 0;

/** Says what is wrong with a header that failed isBadHeaderWord. `offset` is the header's offset in the stream. */
function badHeaderError(headerView: Buffer, offset: number, framesBefore: DecodedFrame[]): FrameError {
  // A copy, so that an error kept in a report does not pin the whole chunk in memory.
  const header = Buffer.from(headerView);
  const type = header.readUInt8(0);
  const shown = `header ${hex(header)} ${JSON.stringify(header.toString('latin1'))}`;
  // Text where a header belongs usually means the stream is a Tty's raw output, which is not framed.
  const hint = /^[\x20-\x7e\t\r\n]{8}$/.test(header.toString('latin1')) ? ' — text where a header belongs: is this an unframed (Tty) stream?' : '';
  if (type > 2) {
    return new FrameError(`frame header at byte ${offset}: unknown stream type ${type} (expected 0 stdin, 1 stdout or 2 stderr); ${shown}${hint}`,
      'unknown-stream-type', offset, { header, framesBefore });
  }
  return new FrameError(`frame header at byte ${offset}: bytes 1–3 must be zero, got ${hex(header.subarray(1, 4))}; ${shown}${hint}`,
    'reserved-bytes', offset, { header, framesBefore });
}

export class FrameDecoder implements StreamDecoder {
  /** Received bytes of the unfinished frame (header bytes until `header` is known, then payload bytes): views, not copies. */
  private pending: Buffer[] = [];
  private pendingLength = 0;
  /** The unfinished frame's header, once all 8 bytes of it have arrived. */
  private header: { stream: StreamName; length: number } | undefined;
  /** Stream offset of the unfinished (or next) frame's header. */
  private frameOffset = 0;
  private failure: FrameError | undefined;
  private ended = false;

  /** Bytes taken as complete frames so far. */
  get bytesDecoded(): number {
    return this.frameOffset;
  }

  /** Bytes received that belong to a frame not complete yet. */
  get bytesPending(): number {
    return this.pendingLength + (this.header ? FRAME_HEADER_LENGTH : 0);
  }

  push(chunk: Buffer): DecodedFrame[] {
    // After a framing error nothing that follows can be trusted to be aligned.
    if (this.failure) throw this.failure;
    if (this.ended) throw new Error('FrameDecoder: push after end()');
    const frames: DecodedFrame[] = [];
    let position = 0;

    if (this.header === undefined && this.pendingLength > 0) {
      // A header began in an earlier chunk: assemble its 8 bytes.
      const needed = FRAME_HEADER_LENGTH - this.pendingLength;
      if (chunk.length < needed) {
        this.keep(chunk);
        return frames;
      }
      const header = Buffer.concat([...this.pending, chunk.subarray(0, needed)], FRAME_HEADER_LENGTH);
      this.pending = [];
      this.pendingLength = 0;
      this.header = this.parseHeader(header, frames);
      position = needed;
    }

    if (this.header !== undefined) {
      // A payload began in an earlier chunk (or its header just completed): finish it.
      const { stream, length } = this.header;
      const needed = length - this.pendingLength;
      if (chunk.length - position < needed) {
        this.keep(chunk.subarray(position));
        return frames;
      }
      const rest = chunk.subarray(position, position + needed);
      const payload = this.pendingLength === 0 ? rest : Buffer.concat([...this.pending, rest], length);
      frames.push({ stream, payload, offset: this.frameOffset });
      this.frameOffset += FRAME_HEADER_LENGTH + length;
      this.header = undefined;
      this.pending = [];
      this.pendingLength = 0;
      position += needed;
    }

    // The hot loop: whole frames straight out of this chunk.
    while (chunk.length - position >= FRAME_HEADER_LENGTH) {
      const typeWord = chunk.readUInt32BE(position);
      if (isBadHeaderWord(typeWord)) throw this.fail(badHeaderError(chunk.subarray(position, position + FRAME_HEADER_LENGTH), this.frameOffset, frames));
      const stream = STREAM_NAMES[(typeWord >>> 24) as StreamTypeCode];
      const length = chunk.readUInt32BE(position + 4);
      const start = position + FRAME_HEADER_LENGTH;
      if (chunk.length - start < length) {
        this.header = { stream, length };
        this.keep(chunk.subarray(start));
        return frames;
      }
      frames.push({ stream, payload: chunk.subarray(start, start + length), offset: this.frameOffset });
      this.frameOffset += FRAME_HEADER_LENGTH + length;
      position = start + length;
    }
    // Fewer than 8 bytes left: the start of the next header.
    this.keep(chunk.subarray(position));
    return frames;
  }

  end(): void {
    if (this.failure) throw this.failure;
    this.ended = true;
    if (this.header !== undefined) {
      const { stream, length } = this.header;
      const missing = length - this.pendingLength;
      throw this.fail(new FrameError(
        `stream ended inside the ${stream} frame at byte ${this.frameOffset}: ${this.pendingLength} of its ${length} payload bytes arrived, ${missing} missing`,
        'truncated', this.frameOffset, { missing, framesBefore: [] }));
    }
    if (this.pendingLength > 0) {
      const header = Buffer.concat(this.pending, this.pendingLength);
      const missing = FRAME_HEADER_LENGTH - this.pendingLength;
      throw this.fail(new FrameError(
        `stream ended inside the frame header at byte ${this.frameOffset}: ${this.pendingLength} of 8 header bytes arrived (${hex(header)}), ${missing} missing`,
        'truncated', this.frameOffset, { header, missing, framesBefore: [] }));
    }
  }

  private keep(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.pending.push(bytes);
    this.pendingLength += bytes.length;
  }

  private parseHeader(header: Buffer, framesBefore: DecodedFrame[]): { stream: StreamName; length: number } {
    if (isBadHeaderWord(header.readUInt32BE(0))) throw this.fail(badHeaderError(header, this.frameOffset, framesBefore));
    return { stream: STREAM_NAMES[header.readUInt8(0) as StreamTypeCode], length: header.readUInt32BE(4) };
  }

  private fail(error: FrameError): FrameError {
    this.failure = error;
    this.pending = [];
    this.pendingLength = 0;
    return this.failure;
  }
}

/** Splits frames by stream: stdin frames go with stdout (spec/1 §4.4: "0 stdin, written on stdout"). */
export function joinStreams(frames: DecodedFrame[]): DecodedStreams {
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  for (const frame of frames) (frame.stream === 'stderr' ? stderr : stdout).push(frame.payload);
  return { stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr), frames };
}

/** Decodes a whole multiplexed body; throws FrameError when it is not well-framed or ends inside a frame. */
export function decodeFrames(body: Buffer): DecodedStreams {
  const decoder = new FrameDecoder();
  const frames = decoder.push(body);
  decoder.end();
  return joinStreams(frames);
}
