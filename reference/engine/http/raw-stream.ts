/**
 * The raw stream of attach and exec start (spec/1 §4.4): on a request with an Upgrade header the
 * connection is hijacked — 101 UPGRADED with the same Connection and Upgrade headers, then the
 * output one way and the client's input the other; without one, a 200 whose body is the output.
 * Output is multiplexed frames without a Tty and the terminal's bytes with one.
 */
import type { Duplex, Readable, Writable } from 'node:stream';
import { writeFrame } from '../../../protocol/frame-encoder.ts';
import type { OutputStreamName, ProcessAttachment } from '../model/containers/process-attachment.ts';
import type { Personality } from './personality.ts';
import type { RouteContext, UpgradedConnection } from './route-table.ts';
import { IDENTITY_HEADERS } from './server-identity.ts';

/** A client of an attach: where output goes and, when it can send any, where its input comes from. */
export interface AttachClient {
  /** the client can send input (a hijacked connection or a websocket) */
  readonly hasInput: boolean;
  /** resolves when what is sent goes out at once (a hijacked head has gone out alone) */
  readonly streamBegun: Promise<void>;
  send(stream: OutputStreamName, chunk: Buffer): void;
  /** Wires the client's input and departure to the attachment, and ends the client when it ends. */
  bind(attachment: ProcessAttachment): void;
  end(): void;
}

/** One piece of a stream's output as the personality cuts it into frames; false when the output wants a drain. */
export function writeFrames(output: Writable, stream: OutputStreamName, chunk: Buffer, personality: Personality): boolean {
  let ready = true;
  for (const payload of personality.framePayloads(chunk)) ready = writeFrame(output, stream, payload) && ready;
  return ready;
}

/**
 * Answers 101 (Upgrade) or 200 with the dialect's raw-stream media type; what follows is the stream.
 * The client can be attached at once (output that comes before a hijacked head has gone out on its
 * own waits for it, see {@link headerBlockDelivered}), so nothing a process prints meanwhile is lost.
 */
export function openRawStream(context: RouteContext, options: { multiplexed: boolean }): AttachClient {
  const { upgrade, response, dialect, personality } = context;
  if (!upgrade) {
    response.writeHead(200, { 'Content-Type': dialect.rawStreamContentType });
    response.flushHeaders();
    return new RawStreamClient(response, undefined, options.multiplexed, personality, new AfterHead(Promise.resolve()));
  }
  writeUpgradedHead(context, upgrade);
  return new RawStreamClient(upgrade.socket, upgrade.socket, options.multiplexed, personality, new AfterHead(headerBlockDelivered(upgrade.socket)));
}

/**
 * Writes 101 UPGRADED with the raw-stream media type on the hijacked connection; returns the socket,
 * for the stream, once the header block has gone out on its own (see {@link headerBlockDelivered}).
 */
export async function answerUpgraded(context: RouteContext, upgrade: UpgradedConnection): Promise<Duplex> {
  writeUpgradedHead(context, upgrade);
  await headerBlockDelivered(upgrade.socket);
  return upgrade.socket;
}

function writeUpgradedHead({ dialect }: RouteContext, upgrade: UpgradedConnection): void {
  // The server's identity goes out too, as dockerd copies its headers into the hijacked answer.
  const headers = Object.entries(IDENTITY_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`);
  upgrade.socket.write(`HTTP/1.1 101 UPGRADED\r\nContent-Type: ${dialect.rawStreamContentType}\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n${headers.join('')}\r\n`);
}

/** Runs actions on a stream's output once its head has gone out, in the order they came. */
export class AfterHead {
  private queued: Array<() => void> | undefined = [];

  constructor(readonly delivered: Promise<void>) {
    void delivered.then(() => {
      const queued = this.queued ?? [];
      this.queued = undefined;
      for (const action of queued) action();
    });
  }

  run(action: () => void): void {
    if (this.queued) this.queued.push(action);
    else action();
  }
}

/**
 * How long the first stream byte waits after a 101 head has gone out. dockerd's first byte comes when
 * the process has started (runc takes tens of milliseconds); a client that reads the head through a
 * buffered reader and then reads the raw socket (the Python SDK's exec_run, attach) counts on that gap:
 * whatever its buffer took past the head is lost to it. Real time, not the engine's clock: it is
 * about the client's scheduling, not the simulated processes'.
 */
export const HEAD_ALONE_MS = 20;

/**
 * Resolves once what was written on the socket (a 101's header block) has been handed to the kernel
 * as a write of its own, and {@link HEAD_ALONE_MS} more have passed: the head leaves before any stream
 * byte, apart from it, as dockerd's does.
 */
export async function headerBlockDelivered(socket: Duplex): Promise<void> {
  if (socket.destroyed) return;
  // Writes complete in order: the callback of an empty one comes once those before it have.
  await new Promise<void>((resolve) => socket.write(Buffer.alloc(0), () => resolve()));
  await new Promise<void>((resolve) => setTimeout(resolve, HEAD_ALONE_MS));
}

class RawStreamClient implements AttachClient {
  constructor(
    private readonly output: Writable,
    private readonly input: Readable | undefined,
    private readonly multiplexed: boolean,
    private readonly personality: Personality,
    private readonly afterHead: AfterHead,
  ) {}

  get hasInput(): boolean {
    return this.input !== undefined;
  }

  get streamBegun(): Promise<void> {
    return this.afterHead.delivered;
  }

  send(stream: OutputStreamName, chunk: Buffer): void {
    this.afterHead.run(() => {
      if (this.output.destroyed) return;
      if (this.multiplexed) writeFrames(this.output, stream, chunk, this.personality);
      else this.output.write(chunk);
    });
  }

  bind(attachment: ProcessAttachment): void {
    this.input?.on('data', (chunk: Buffer) => attachment.write(chunk));
    this.input?.on('end', () => attachment.endInput());
    this.output.once('close', () => attachment.clientGone());
    void attachment.ended.then(() => this.end());
  }

  end(): void {
    this.afterHead.run(() => this.output.end());
  }
}
