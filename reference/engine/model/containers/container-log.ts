/**
 * A container's log as the json-file driver keeps it: one entry per line of output, with its stream
 * and the time it was read, across every run of the container. Reading follows dockerd: `tail` counts
 * lines of the whole log before the stream selection, `follow` lasts until the running process ends.
 */
import type { OutputStream } from '../../process/index.ts';

export type LogStream = 'stdout' | 'stderr';

export interface LogEntry {
  stream: LogStream;
  time: Date;
  /** one line with its `\n`, or the unfinished end of the output */
  bytes: Buffer;
}

export interface LogReadOptions {
  stdout: boolean;
  stderr: boolean;
  /** only entries from this time on */
  since?: Date;
  /** the last `tail` entries of the whole log, before the stream selection; undefined or negative: all */
  tail?: number;
  /** after the kept entries, the new ones until the running process ends */
  follow?: boolean;
  /** ends a follow early (the reader went away) */
  signal?: AbortSignal;
}

/** dockerd's log copier reads 16 KiB at a time: a longer line becomes several entries. */
export const MAX_LINE_BYTES = 16 * 1024;
/** Oldest entries go beyond this, as with json-file's max-size rotation: a chatty container cannot exhaust memory. */
export const MAX_LOG_BYTES = 32 * 1024 * 1024;

type Watcher = (entry: LogEntry | undefined) => void;

export class ContainerLog {
  private readonly entries: LogEntry[] = [];
  private bytes = 0;
  /** streams of the current run still open */
  private openStreams = 0;
  private readonly watchers = new Set<Watcher>();

  constructor(private readonly clock: () => Date) {}

  /** Whether a run's output is still coming in. */
  get recording(): boolean {
    return this.openStreams > 0;
  }

  /**
   * Records a run's output until both streams end. Subscribes at once: call it in the tick the
   * process starts, before its first output.
   */
  record(stdout: OutputStream, stderr: OutputStream): void {
    this.capture('stdout', stdout);
    this.capture('stderr', stderr);
  }

  private capture(stream: LogStream, source: OutputStream): void {
    if (source.ended) return;
    this.openStreams++;
    let pending = Buffer.alloc(0);
    source.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const newline = pending.indexOf(0x0a);
        const end = newline >= 0 && newline < MAX_LINE_BYTES ? newline + 1 : pending.length >= MAX_LINE_BYTES ? MAX_LINE_BYTES : -1;
        if (end < 0) break;
        this.append(stream, pending.subarray(0, end));
        pending = pending.subarray(end);
      }
    });
    source.once('end', () => {
      if (pending.length > 0) this.append(stream, pending);
      if (--this.openStreams === 0) for (const watcher of [...this.watchers]) watcher(undefined);
    });
  }

  private append(stream: LogStream, bytes: Buffer): void {
    const entry: LogEntry = { stream, time: this.clock(), bytes: Buffer.from(bytes) };
    this.entries.push(entry);
    this.bytes += entry.bytes.length;
    if (this.bytes > MAX_LOG_BYTES) this.dropOldest();
    for (const watcher of [...this.watchers]) watcher(entry);
  }

  private dropOldest(): void {
    let drop = 0;
    while (this.bytes > MAX_LOG_BYTES && drop < this.entries.length) this.bytes -= (this.entries[drop++] as LogEntry).bytes.length;
    this.entries.splice(0, drop);
  }

  async *read(options: LogReadOptions): AsyncGenerator<LogEntry> {
    const wanted = (entry: LogEntry) =>
      (entry.stream === 'stdout' ? options.stdout : options.stderr) && (options.since === undefined || entry.time >= options.since);
    const tail = options.tail ?? -1;
    const kept = tail < 0 ? [...this.entries] : this.entries.slice(Math.max(0, this.entries.length - tail));
    // Watch before yielding anything, so that no entry falls between the kept ones and the live ones.
    const live = options.follow && this.recording ? this.watch(options.signal) : undefined;
    try {
      for (const entry of kept) if (wanted(entry)) yield entry;
      if (live) for await (const entry of live) if (wanted(entry)) yield entry;
    } finally {
      await live?.return(undefined);
    }
  }

  private async *watch(signal: AbortSignal | undefined): AsyncGenerator<LogEntry> {
    const queued: Array<LogEntry | undefined> = [];
    let wake: (() => void) | undefined;
    const watcher: Watcher = (entry) => {
      queued.push(entry);
      wake?.();
    };
    const abort = () => watcher(undefined);
    this.watchers.add(watcher);
    signal?.addEventListener('abort', abort);
    try {
      if (signal?.aborted) return;
      for (;;) {
        while (queued.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        const entry = queued.shift();
        if (entry === undefined) return;
        yield entry;
      }
    } finally {
      this.watchers.delete(watcher);
      signal?.removeEventListener('abort', abort);
    }
  }
}

/**
 * The attributes `details=1` shows before each line: the container labels and environment variables
 * the log options name (`labels`, `env`), as json-file records them.
 */
export function logAttributes(logOptions: Record<string, string>, labels: Record<string, string>, env: string[]): Record<string, string> {
  const listed = (option: string | undefined) => (option ?? '').split(',').filter(Boolean);
  const attributes: Record<string, string> = {};
  for (const key of listed(logOptions.labels)) {
    const value = labels[key];
    if (value !== undefined) attributes[key] = value;
  }
  const variables = new Map(env.map((entry) => [entry.split('=', 1)[0] ?? entry, entry.slice(entry.indexOf('=') + 1)]));
  for (const key of listed(logOptions.env)) {
    const value = variables.get(key);
    if (value !== undefined) attributes[key] = value;
  }
  return attributes;
}
