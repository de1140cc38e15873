/**
 * The ends of the standard streams a program holds: an input it reads chunk by chunk and output
 * sinks it writes to. Redirections swap them for files; a pipe or the terminal stands behind them.
 */

export interface PendingRead {
  /** the next chunk, or null at the end of the input */
  readonly result: Promise<Buffer | null>;
  /** gives up this read; data that arrives later stays for the next reader */
  cancel(): void;
}

export interface InputSource {
  read(): PendingRead;
  /** puts back what a reader took beyond what it wanted (the shell's `read` takes one line) */
  unread?(chunk: Buffer): void;
}

export interface OutputSink {
  write(data: Buffer | string): void;
}

export interface ProgramIo {
  stdin: InputSource;
  stdout: OutputSink;
  stderr: OutputSink;
}

const nothing = (): void => {};

/** `/dev/null`: what a container without OpenStdin and a background job read. */
export const NULL_INPUT: InputSource = {
  read: () => ({ result: Promise.resolve(null), cancel: nothing }),
};

/** `/dev/null` as an output. */
export const NULL_OUTPUT: OutputSink = { write: nothing };

/** An input with a known content (`< FILE`). */
export function bufferInput(data: Buffer): InputSource {
  let remaining: Buffer | null = data.length > 0 ? data : null;
  return {
    read: () => {
      const chunk = remaining;
      remaining = null;
      return { result: Promise.resolve(chunk), cancel: nothing };
    },
    unread: (chunk) => {
      if (chunk.length > 0) remaining = remaining ? Buffer.concat([chunk, remaining]) : chunk;
    },
  };
}

/**
 * The reading end of a pipe that is written from outside (a container's or exec's stdin): chunks
 * queue until read; readers queue until written.
 */
export class InputPipe implements InputSource {
  private readonly chunks: Buffer[] = [];
  private finished = false;
  private readonly readers: Array<(chunk: Buffer | null) => void> = [];

  get ended(): boolean {
    return this.finished;
  }

  push(chunk: Buffer): void {
    if (this.finished || chunk.length === 0) return;
    const reader = this.readers.shift();
    if (reader) reader(chunk);
    else this.chunks.push(chunk);
  }

  end(): void {
    if (this.finished) return;
    this.finished = true;
    for (const reader of this.readers.splice(0)) reader(null);
  }

  unread(chunk: Buffer): void {
    if (chunk.length > 0) this.chunks.unshift(chunk);
  }

  read(): PendingRead {
    const chunk = this.chunks.shift();
    if (chunk !== undefined) return { result: Promise.resolve(chunk), cancel: nothing };
    if (this.finished) return { result: Promise.resolve(null), cancel: nothing };
    let deliver!: (chunk: Buffer | null) => void;
    const result = new Promise<Buffer | null>((resolve) => (deliver = resolve));
    this.readers.push(deliver);
    return {
      result,
      cancel: () => {
        const index = this.readers.indexOf(deliver);
        if (index >= 0) this.readers.splice(index, 1);
      },
    };
  }
}
