/**
 * Demultiplexing a live stream into two writables, the shape docker-modem's demuxStream offers, but
 * strict: a framing error or a stream that ends inside a frame rejects instead of being passed through.
 * Honours backpressure: when an output asks to wait, reading waits with it.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { createStreamDecoder, type StreamFormat } from './raw-tty.ts';
import { FrameError, type DecodedFrame } from '../../protocol/stream-types.ts';

export interface DemuxOutputs {
  /** receives stdout payloads, and stdin frames too (spec/1 §4.4: "0 stdin, written on stdout") */
  stdout: Writable;
  stderr: Writable;
}

/**
 * Reads `source` to its end and writes each payload to its output. Resolves when the source ended on
 * a frame boundary; rejects with a FrameError otherwise, after writing every frame before the bad
 * one (what was read up to the error is what a failure report shows). Does not end the outputs.
 */
export async function demuxStream(source: AsyncIterable<Buffer>, outputs: DemuxOutputs, format: StreamFormat = { tty: false }): Promise<void> {
  const decoder = createStreamDecoder(format);
  for await (const chunk of source) {
    let frames: DecodedFrame[];
    try {
      frames = decoder.push(chunk);
    } catch (error) {
      if (error instanceof FrameError) write(error.framesBefore, outputs);
      throw error;
    }
    const waits = write(frames, outputs);
    // Drain after the whole chunk rather than per frame: the frames are already in memory either way.
    await Promise.all(waits.map((output) => once(output, 'drain')));
  }
  decoder.end();
}

/** Writes the payloads; returns the outputs that asked to wait for 'drain'. */
function write(frames: DecodedFrame[], outputs: DemuxOutputs): Writable[] {
  const waits: Writable[] = [];
  for (const frame of frames) {
    const output = frame.stream === 'stderr' ? outputs.stderr : outputs.stdout;
    if (!output.write(frame.payload) && !waits.includes(output)) waits.push(output);
  }
  return waits;
}
