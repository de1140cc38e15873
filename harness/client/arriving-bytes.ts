/**
 * The bytes of a stream kept as they arrive, with bounded waits: what a hijacked connection or a
 * followed log delivers before it ends, which a body read whole cannot show.
 */
import type { Readable } from 'node:stream';

/** How long a wait lasts unless told otherwise: output that does not come in this time is a hung stream. */
const DEFAULT_WAIT_MS = 10_000;

export class ArrivingBytes {
  private readonly chunks: Buffer[] = [];
  /** the chunks joined, until the next arrives: waits test `received` on every chunk of long streams */
  private joined: Buffer | undefined;
  private finished = false;
  private readonly waiters = new Set<() => void>();

  constructor(source: Readable) {
    source.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.joined = undefined;
      this.wake();
    });
    const finish = () => {
      this.finished = true;
      this.wake();
    };
    source.on('end', finish);
    source.on('close', finish);
    source.on('error', finish);
  }

  /** Everything received so far; the same Buffer until more arrives. */
  get received(): Buffer {
    this.joined ??= Buffer.concat(this.chunks);
    return this.joined;
  }

  /** The source has ended (or failed): nothing more will arrive. */
  get ended(): boolean {
    return this.finished;
  }

  /**
   * Waits until `done(received)` holds, the source ends or the time runs out; resolves whether `done`
   * holds then. `done` runs inside the source's data handler, so it must not throw.
   */
  async waitFor(done: (received: Buffer) => boolean, timeoutMs = DEFAULT_WAIT_MS): Promise<boolean> {
    if (done(this.received) || this.finished) return done(this.received);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        resolve(false);
      }, timeoutMs);
      const wake = () => {
        if (done(this.received) || this.finished) {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve(done(this.received));
        }
      };
      this.waiters.add(wake);
    });
  }

  /** Whether the source ends within the time; a target keeping it open is an answer, not an error. */
  endsWithin(timeoutMs = DEFAULT_WAIT_MS): Promise<boolean> {
    return this.waitFor(() => this.finished, timeoutMs);
  }

  private wake(): void {
    for (const waiter of this.waiters) waiter();
  }
}
