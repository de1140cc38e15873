/**
 * Reading the output streams of attach, logs and exec start (spec/1 §4.4) the same way in every
 * check: bounded waits, and frames told apart by stream.
 */
import { FrameDecoder, joinStreams } from '../harness/streams/frame-decoder.ts';
import type { IncomingHttpHeaders } from 'node:http';
import type { DecodedFrame, StreamName } from '../protocol/stream-types.ts';

/** Bounds every read of a stream: output that does not come in this time is a hung stream. */
export const STREAM_TIMEOUT_MS = 10_000;

/** Writes one line to stdout and one to stderr, in that order, then exits 0. */
export const OUT_AND_ERR = ['sh', '-c', 'echo out; echo err >&2'];

/**
 * stdout of the whole frames received so far. A wait predicate runs inside the socket's data handler,
 * where a throw would escape the check: bad framing reads as "nothing yet" here and fails the check at
 * the strict decode that follows.
 */
export function stdoutSoFar(received: Buffer): string {
  try {
    return joinStreams(new FrameDecoder().push(received)).stdout.toString('utf8');
  } catch {
    return '';
  }
}

/** The text the frames of one stream carry, in order; stdin frames are kept apart from stdout here. */
export function streamText(frames: DecodedFrame[], stream: StreamName): string {
  return Buffer.concat(frames.filter((frame) => frame.stream === stream).map((frame) => frame.payload)).toString('utf8');
}

/**
 * What a 101 answer to a hijack repeats of the request (spec/1 §4.4.1: Upgrade and Connection, both
 * tokens compared case-insensitively as HTTP has them) and its Content-Type.
 */
export function upgradeHeaders(headers: IncomingHttpHeaders): { upgrade: string; connection: string; contentType: string | undefined } {
  return {
    upgrade: String(headers.upgrade ?? '').toLowerCase(),
    connection: String(headers.connection ?? '').toLowerCase(),
    contentType: headers['content-type'],
  };
}
