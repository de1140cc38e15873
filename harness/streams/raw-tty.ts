/**
 * With a Tty (spec/1 §4.4 item 2) the stream is the pseudo-terminal's raw output: no frames, and
 * stderr has already joined stdout in the terminal. These helpers give that stream the same shape as
 * decoded frames, so a reader handles both with one code path and chooses by the container's Tty flag.
 */
import { FrameDecoder, decodeFrames } from './frame-decoder.ts';
import type { DecodedFrame, DecodedStreams, StreamDecoder } from '../../protocol/stream-types.ts';

/** Passes every chunk through as stdout; never fails, since any byte sequence is a valid Tty stream. */
export class RawTtyDecoder implements StreamDecoder {
  private offset = 0;

  push(chunk: Buffer): DecodedFrame[] {
    if (chunk.length === 0) return [];
    const frame: DecodedFrame = { stream: 'stdout', payload: chunk, offset: this.offset };
    this.offset += chunk.length;
    return [frame];
  }

  end(): void {}
}

/** A whole Tty body as streams: all of it is stdout. */
export function decodeRawTty(body: Buffer): DecodedStreams {
  return { stdout: body, stderr: Buffer.alloc(0), frames: body.length === 0 ? [] : [{ stream: 'stdout', payload: body, offset: 0 }] };
}

export interface StreamFormat {
  /** the container's (or exec's) Tty flag: true means a raw stream, false means frames */
  tty: boolean;
}

export function createStreamDecoder({ tty }: StreamFormat): StreamDecoder {
  return tty ? new RawTtyDecoder() : new FrameDecoder();
}

/** A whole attach/logs/exec body, framed or raw according to `tty`. */
export function decodeStreamBody(body: Buffer, { tty }: StreamFormat): DecodedStreams {
  return tty ? decodeRawTty(body) : decodeFrames(body);
}
