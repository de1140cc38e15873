/**
 * The multiplexed stream format of attach, logs and exec start (spec/1 §4.4): without a Tty the
 * daemon sends frames, each an 8-byte header — byte 0 the stream type (0 stdin, 1 stdout,
 * 2 stderr), bytes 1–3 zero, bytes 4–7 the payload size as uint32 big-endian — then the payload.
 * With a Tty there is no framing at all. Shared by the harness (reading) and the reference (writing).
 */

export const FRAME_HEADER_LENGTH = 8;
/** The size field is 32 bits wide; a larger payload has to go out as several frames. */
export const MAX_FRAME_PAYLOAD_LENGTH = 0xffff_ffff;

/** Indexed by the stream type byte. */
export const STREAM_NAMES = ['stdin', 'stdout', 'stderr'] as const;
export type StreamName = (typeof STREAM_NAMES)[number];
export type StreamTypeCode = 0 | 1 | 2;

export interface DecodedFrame {
  stream: StreamName;
  /**
   * The payload bytes. When the whole payload arrived in one pushed chunk this is a view into that
   * chunk (no copy), so chunks must not be modified after they are pushed.
   */
  payload: Buffer;
  /** Byte offset of the frame's header from the start of the stream (raw TTY: of the chunk), for error messages. */
  offset: number;
}

/** A whole body split by stream. stdin frames count as stdout, as the spec says readers write them there. */
export interface DecodedStreams {
  stdout: Buffer;
  stderr: Buffer;
  frames: DecodedFrame[];
}

/** What both the frame decoder and the raw-TTY passthrough offer, so a reader picks one by the Tty flag. */
export interface StreamDecoder {
  /** Takes the next chunk of the stream, however it was cut; returns the frames it completed. */
  push(chunk: Buffer): DecodedFrame[];
  /** The stream ended: throws a FrameError when it ended inside a frame. */
  end(): void;
}

export type FrameErrorKind = 'unknown-stream-type' | 'reserved-bytes' | 'truncated';

/** The stream does not follow the frame format; `offset` is where the offending frame starts. */
export class FrameError extends Error {
  override name = 'FrameError';
  constructor(
    message: string,
    readonly kind: FrameErrorKind,
    /** byte offset of the bad or truncated frame's header from the start of the stream */
    readonly offset: number,
    readonly details: {
      /** the 8 header bytes, or as many as arrived */
      header?: Buffer;
      /** truncated: bytes that did not arrive (of the header when it is incomplete, else of the payload) */
      missing?: number;
      /** frames the failing push completed before it hit the bad header: what was read up to the error */
      framesBefore?: DecodedFrame[];
    } = {},
  ) {
    super(message);
  }

  get missing(): number | undefined {
    return this.details.missing;
  }

  get framesBefore(): DecodedFrame[] {
    return this.details.framesBefore ?? [];
  }
}
