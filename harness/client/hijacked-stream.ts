/**
 * A hijacked connection (spec/1 §4.4): the client sends `Upgrade: tcp`, the daemon answers
 * 101 UPGRADED and the socket then carries stdin one way and the output stream the other.
 * Reading is bounded: a stream that hangs ends the wait with what was read so far.
 */
import type { Duplex } from 'node:stream';
import type { IncomingHttpHeaders } from 'node:http';
import { ArrivingBytes } from './arriving-bytes.ts';

export class StreamTimeout extends Error {
  override name = 'StreamTimeout';
  constructor(
    message: string,
    /** what had arrived when the deadline passed */
    readonly received: Buffer,
  ) {
    super(message);
  }
}

export class HijackedStream extends ArrivingBytes {
  constructor(
    readonly headers: IncomingHttpHeaders,
    private readonly socket: Duplex,
  ) {
    super(socket);
  }

  write(data: Buffer | string): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(data, (error) => (error ? reject(error) : resolve())));
  }

  /** Half-closes: the daemon sees stdin end, the output keeps coming. */
  closeWrite(): void {
    this.socket.end();
  }

  close(): void {
    this.socket.destroy();
  }

  /** Waits until `done(received)` holds or the stream ends; throws StreamTimeout with what was read. */
  async readUntil(done: (received: Buffer) => boolean, timeoutMs = 10_000): Promise<Buffer> {
    const reached = await this.waitFor(done, timeoutMs);
    if (!reached && !this.ended) throw new StreamTimeout(`the stream did not deliver what was expected within ${timeoutMs} ms`, this.received);
    return this.received;
  }

  /** Everything until the daemon closes the stream. */
  readToEnd(timeoutMs = 10_000): Promise<Buffer> {
    return this.readUntil(() => false, timeoutMs);
  }
}
