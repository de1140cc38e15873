/**
 * One client attached to a process's standard streams, as dockerd's attach copies them (its
 * CopyStreams): the process's stdout and stderr go to the client while both are there; the client's
 * input goes to the process's stdin. With a terminal, the detach keys in the input end the attach and
 * leave the process running. When the client's input ends, a process without a terminal that closes
 * stdin with its client (StdinOnce, every exec) gets the end of its stdin and the attach lasts until
 * it exits; otherwise the attach ends there. The client may attach before the process exists (a
 * container that is about to start): its input waits, and the process is connected when it starts.
 */
import type { SimulatedProcess } from '../../process/index.ts';
import { DEFAULT_DETACH_KEYS, DetachKeyMatcher } from './detach-keys.ts';

export type OutputStreamName = 'stdout' | 'stderr';

export interface AttachmentOptions {
  /** the client's input goes to the process (the caller has checked that the process reads it) */
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  /** the process runs on a terminal: stderr has joined stdout, and detach keys apply */
  tty: boolean;
  /** without a terminal, the end of the client's input ends the process's stdin */
  closeStdin: boolean;
  /** the sequence that detaches; default ctrl-p ctrl-q; empty: nothing detaches */
  detachKeys?: Buffer;
  /** where the process's output goes, chunk by chunk, in the order it was written */
  output: (stream: OutputStreamName, chunk: Buffer) => void;
}

/**
 * Why the attach ended: the process exited (or never started), the client typed the detach keys,
 * the client's input ended, or the client went away.
 */
export type AttachmentEnd = 'exited' | 'detached' | 'input-ended' | 'client-gone';

export class ProcessAttachment {
  readonly ended: Promise<AttachmentEnd>;
  private finish!: (reason: AttachmentEnd) => void;
  private done = false;
  private process: SimulatedProcess | undefined;
  private readonly detachKeys: DetachKeyMatcher | undefined;
  /** client input that came before the process did */
  private readonly pendingInput: Buffer[] = [];
  private inputEnded = false;
  private readonly unsubscribers: Array<() => void> = [];

  constructor(private readonly options: AttachmentOptions) {
    const keys = options.detachKeys ?? DEFAULT_DETACH_KEYS;
    this.detachKeys = options.stdin && options.tty && keys.length > 0 ? new DetachKeyMatcher(keys) : undefined;
    this.ended = new Promise((resolve) => {
      this.finish = (reason) => {
        if (this.done) return;
        this.done = true;
        for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
        resolve(reason);
      };
    });
  }

  get connected(): boolean {
    return this.process !== undefined;
  }

  /** Wires the process in. Call it in the tick the process starts, before its first output. */
  connect(process: SimulatedProcess): void {
    if (this.done || this.process) return;
    this.process = process;
    for (const stream of ['stdout', 'stderr'] as const) {
      if (!this.options[stream]) continue;
      const forward = (chunk: Buffer) => this.options.output(stream, chunk);
      process[stream].on('data', forward);
      this.unsubscribers.push(() => process[stream].off('data', forward));
    }
    void process.exited.then(() => this.finish('exited'));
    for (const chunk of this.pendingInput.splice(0)) this.deliver(chunk);
    if (this.inputEnded) this.endOfInput();
  }

  /** The client's input. */
  write(chunk: Buffer): void {
    if (this.done || !this.options.stdin) return;
    if (this.process) this.deliver(chunk);
    else this.pendingInput.push(chunk);
  }

  /** The client's input has ended (it closed its side, or the socket). */
  endInput(): void {
    if (this.done || !this.options.stdin || this.inputEnded) return;
    this.inputEnded = true;
    if (this.process) this.endOfInput();
  }

  /** The client went away: its input ends, and nothing more is sent to it. */
  clientGone(): void {
    this.endInput();
    this.finish('client-gone');
  }

  /** Ends an attach whose process will never come (its start failed, its container went away). */
  abandon(): void {
    this.finish('exited');
  }

  private deliver(chunk: Buffer): void {
    const process = this.process as SimulatedProcess;
    if (!this.detachKeys) return process.stdin.write(chunk);
    const { forward, detached } = this.detachKeys.push(chunk);
    if (forward.length > 0) process.stdin.write(forward);
    if (detached) this.finish('detached');
  }

  private endOfInput(): void {
    if (this.options.closeStdin && !this.options.tty) this.process?.stdin.end();
    else this.finish('input-ended');
  }
}
