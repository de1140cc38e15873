/**
 * Frame decode throughput: how fast a multiplexed attach/logs stream (spec/1 §4.4) is split into
 * stdout and stderr, for 16 B, 4 KiB and 64 KiB payloads, delivered in 64 KiB chunks as a socket
 * would. Side by side:
 *   - FrameDecoder.push — the bare decoder, frames returned as arrays;
 *   - demuxStream — ours with the docker-modem shape: a Readable in, two Writables out;
 *   - docker-modem's Modem.prototype.demuxStream(stream, stdout, stderr), same source and sinks.
 * Figures are MB/s of framed input (headers included, 1 MB = 10^6 bytes), median of N runs after a
 * warm-up. Each run checks every contender delivered exactly the payload bytes of each stream.
 *
 *   node --import tsx bench/frame-decode.bench.ts [runs=5] [MiB per case=64]
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import { Readable, Writable } from 'node:stream';
import { demuxStream } from '../harness/streams/demux.ts';
import { FrameDecoder } from '../harness/streams/frame-decoder.ts';

const runs = Number(process.argv[2] ?? 5);
const mebibytes = Number(process.argv[3] ?? 64);
const CHUNK = 64 * 1024;
const PAYLOAD_SIZES = [16, 4096, 65536];
/** docker-modem re-copies its buffer per frame; where that makes a case take minutes, it runs on less input. */
const SLOW_CASE_BUDGET_MS = 4000;

// docker-modem is CommonJS without types: load it through require and describe the one method used.
type DemuxStream = (source: NodeJS.ReadableStream, stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream) => void;
const Modem = createRequire(import.meta.url)('docker-modem') as { prototype: { demuxStream: DemuxStream } };
const modemDemux: DemuxStream = (source, stdout, stderr) => Modem.prototype.demuxStream.call({}, source, stdout, stderr);

interface Body {
  chunks: Buffer[];
  bytes: number;
  frames: number;
  stdoutBytes: number;
  stderrBytes: number;
}

/** About `bytes` of frames alternating stdout and stderr, every frame carrying `payloadSize` bytes, cut in 64 KiB chunks. */
function buildBody(payloadSize: number, bytes: number): Body {
  const frames = Math.max(2, Math.round(bytes / (8 + payloadSize)));
  const body = Buffer.alloc(frames * (8 + payloadSize), 0x61);
  for (let i = 0, offset = 0; i < frames; i += 1, offset += 8 + payloadSize) {
    body.writeUInt32BE((1 + (i % 2)) * 0x100_0000, offset);
    body.writeUInt32BE(payloadSize, offset + 4);
  }
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < body.length; offset += CHUNK) chunks.push(body.subarray(offset, offset + CHUNK));
  const stdoutFrames = Math.ceil(frames / 2);
  return { chunks, bytes: body.length, frames, stdoutBytes: stdoutFrames * payloadSize, stderrBytes: (frames - stdoutFrames) * payloadSize };
}

/** A sink that only counts, so the figures are the demuxers' cost and not the sink's. */
function countingSink() {
  let bytes = 0;
  const writable = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback();
    },
  });
  return { writable, bytes: () => bytes };
}

type Contender = (body: Body) => Promise<{ stdout: number; stderr: number }>;

const contenders: Record<string, Contender> = {
  'FrameDecoder.push': async (body) => {
    const decoder = new FrameDecoder();
    let stdout = 0;
    let stderr = 0;
    for (const chunk of body.chunks) {
      for (const frame of decoder.push(chunk)) {
        if (frame.stream === 'stderr') stderr += frame.payload.length;
        else stdout += frame.payload.length;
      }
    }
    decoder.end();
    return { stdout, stderr };
  },
  demuxStream: async (body) => {
    const [stdout, stderr] = [countingSink(), countingSink()];
    await demuxStream(Readable.from(body.chunks), { stdout: stdout.writable, stderr: stderr.writable });
    return { stdout: stdout.bytes(), stderr: stderr.bytes() };
  },
  'docker-modem': async (body) => {
    const [stdout, stderr] = [countingSink(), countingSink()];
    const source = Readable.from(body.chunks);
    // docker-modem writes from its 'data' handler and never signals completion: the source's 'end' is it.
    const ended = new Promise((resolve, reject) => source.on('end', resolve).on('error', reject));
    modemDemux(source, stdout.writable, stderr.writable);
    await ended;
    return { stdout: stdout.bytes(), stderr: stderr.bytes() };
  },
};

async function timeOnce(contender: Contender, body: Body, name: string): Promise<number> {
  const started = performance.now();
  const delivered = await contender(body);
  const elapsed = performance.now() - started;
  if (delivered.stdout !== body.stdoutBytes || delivered.stderr !== body.stderrBytes) {
    throw new Error(`${name} delivered stdout ${delivered.stdout} / stderr ${delivered.stderr} bytes, expected ${body.stdoutBytes} / ${body.stderrBytes}`);
  }
  return elapsed;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const mbPerSecond = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);

const rows: string[][] = [];
for (const payloadSize of PAYLOAD_SIZES) {
  const full = buildBody(payloadSize, mebibytes * 1024 * 1024);
  const row = [`${payloadSize} B`];
  const rates: Record<string, number> = {};
  for (const [name, contender] of Object.entries(contenders)) {
    // Warm-up on 1/16 of the input, which also tells whether the whole input fits the time budget.
    const probe = buildBody(payloadSize, full.bytes / 16);
    const probeMs = await timeOnce(contender, probe, name);
    const fits = (probeMs * full.bytes) / probe.bytes <= SLOW_CASE_BUDGET_MS;
    const body = fits ? full : buildBody(payloadSize, Math.max(probe.bytes, (SLOW_CASE_BUDGET_MS / probeMs) * probe.bytes));
    const samples: number[] = [];
    for (let i = 0; i < runs; i += 1) samples.push(await timeOnce(contender, body, name));
    const rate = mbPerSecond(body.bytes, median(samples));
    rates[name] = rate;
    row.push(`${rate.toFixed(0)}${fits ? '' : ` (on ${(body.bytes / 2 ** 20).toFixed(0)} MiB)`}`);
  }
  const ratio = (rates.demuxStream ?? NaN) / (rates['docker-modem'] ?? NaN);
  row.push(`${ratio.toFixed(ratio < 10 ? 1 : 0)}×`);
  rows.push(row);
  console.error(`  ${payloadSize} B done`);
}

const header = ['payload', ...Object.keys(contenders), 'demuxStream / docker-modem'];
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
console.log(`Frame decode, MB/s of framed input, ${mebibytes} MiB per case in 64 KiB chunks, median of ${runs} runs; Node ${process.version}, ${os.cpus().length} cores`);
console.log(line(header));
console.log(line(widths.map((width) => '-'.repeat(width))));
for (const row of rows) console.log(line(row));
