/**
 * One output stream of a simulated process (stdout or stderr), readable as `data`/`end` events or by
 * async iteration. It keeps nothing for readers who are not there yet: subscribe in the same tick as
 * the process starts (the program's first output comes a tick later), as a log driver does.
 */
import { EventEmitter } from 'node:events';

interface OutputEvents {
  data: [chunk: Buffer];
  end: [];
}

export class OutputStream extends EventEmitter<OutputEvents> implements AsyncIterable<Buffer> {
  private finished = false;

  get ended(): boolean {
    return this.finished;
  }

  /** Only the process side writes. Writes after the end are dropped, like output of orphans. */
  write(chunk: Buffer): void {
    if (this.finished || chunk.length === 0) return;
    this.emit('data', chunk);
  }

  end(): void {
    if (this.finished) return;
    this.finished = true;
    this.emit('end');
  }

  /** Everything written from now until the end, as one Buffer. */
  async readAll(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  /** Iterates the chunks written from the moment the iterator is made until the end. */
  [Symbol.asyncIterator](): AsyncIterator<Buffer> {
    const queued: Buffer[] = [];
    let done = this.finished;
    let wake: (() => void) | undefined;
    const onData = (chunk: Buffer) => {
      queued.push(chunk);
      wake?.();
    };
    const onEnd = () => {
      done = true;
      wake?.();
    };
    const detach = () => {
      this.off('data', onData);
      this.off('end', onEnd);
    };
    this.on('data', onData);
    this.on('end', onEnd);
    return {
      next: async (): Promise<IteratorResult<Buffer>> => {
        while (queued.length === 0 && !done) await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        const chunk = queued.shift();
        if (chunk !== undefined) return { value: chunk, done: false };
        detach();
        return { value: undefined, done: true };
      },
      return: async (): Promise<IteratorResult<Buffer>> => {
        detach();
        done = true;
        return { value: undefined, done: true };
      },
    };
  }
}
