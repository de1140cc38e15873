/**
 * GET /containers/{id}/logs as a stream (spec/1 §4.1 logs row, §4.4): follow keeps the response open
 * and delivers output as the process writes it, until the container exits; tail and since choose where
 * the log starts. The process is `cat` fed through attach, so each line is written exactly when the
 * check says, and the check never sleeps for a state. (tail and timestamps of a finished log are
 * checks of the containers suite.)
 */
import type { Readable } from 'node:stream';
import { request } from 'undici';
import { check, type CheckContext } from '../../harness/check.ts';
import { encodeQuery, type EngineClient, type Query } from '../../harness/client/engine-client.ts';
import { NonConformingResponse, type ExchangeRecord } from '../../harness/client/api-response.ts';
import type { HijackedStream } from '../../harness/client/hijacked-stream.ts';
import { connectionDispatcher } from '../../harness/client/shared-dispatcher.ts';
import { FrameDecoder, decodeFrames, joinStreams } from '../../harness/streams/frame-decoder.ts';
import { until } from '../../harness/wait-until.ts';

/** Bounds every read: output that does not come in this time is a hung stream. */
const STREAM_TIMEOUT_MS = 10_000;

/**
 * A response body read as it arrives, with bounded waits. The engine client reads bodies whole, which
 * cannot show that a followed log delivers a line before the container exits.
 */
class ResponseStream {
  private readonly chunks: Buffer[] = [];
  private finished = false;
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly status: number,
    private readonly body: Readable,
  ) {
    body.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.wake();
    });
    const finish = () => {
      this.finished = true;
      this.wake();
    };
    body.on('end', finish);
    body.on('close', finish);
    body.on('error', finish);
  }

  get received(): Buffer {
    return Buffer.concat(this.chunks);
  }

  get ended(): boolean {
    return this.finished;
  }

  /** Resolves when `done(received)` holds or the body ends; false when the time ran out first. */
  async waitFor(done: (received: Buffer) => boolean, timeoutMs = STREAM_TIMEOUT_MS): Promise<boolean> {
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

  /** Resolves true once the body has ended, false when it is still open after the time. */
  async endsWithin(timeoutMs = STREAM_TIMEOUT_MS): Promise<boolean> {
    await this.waitFor(() => this.finished, timeoutMs);
    return this.finished;
  }

  close(): void {
    this.body.destroy();
  }

  private wake(): void {
    for (const waiter of this.waiters) waiter();
  }
}

/**
 * engine.hijack, where a refused upgrade counts as the target's answer: undici rejects any answer but
 * 101 with "bad upgrade", which would otherwise read as the check's own error.
 */
async function hijacked(engine: EngineClient, path: string, options: Parameters<EngineClient['hijack']>[1]): Promise<HijackedStream> {
  try {
    return await engine.hijack(path, options);
  } catch (error) {
    if ((error as Error).message === 'bad upgrade') {
      const prefix = engine.version === undefined ? '' : `/v${engine.version}`;
      throw new NonConformingResponse(`POST ${prefix}${path} with Upgrade: tcp was not answered 101: the target refused to hijack the connection`);
    }
    throw error;
  }
}

/** GET the logs under the check's version prefix; resolves on the answer's headers. */
async function openLogs({ engine, session }: CheckContext, id: string, query: Query): Promise<ResponseStream> {
  const prefix = engine.version === undefined ? '' : `/v${engine.version}`;
  const path = `${prefix}/containers/${id}/logs${encodeQuery(query)}`;
  const record: ExchangeRecord = { method: 'GET', path: `${path} (read as it streams)` };
  engine.exchanges.push(record);
  const { connection } = session.target;
  const { statusCode, body } = await request(new URL(path, connection.origin), {
    method: 'GET',
    dispatcher: connectionDispatcher(connection),
    signal: AbortSignal.timeout(3 * STREAM_TIMEOUT_MS),
  });
  record.status = statusCode;
  return new ResponseStream(statusCode, body);
}

/** stdout of the whole frames received so far; never throws, as it runs inside data handlers. */
function stdoutSoFar(received: Buffer): string {
  try {
    return joinStreams(new FrameDecoder().push(received)).stdout.toString('utf8');
  } catch {
    return '';
  }
}

interface CatSession {
  id: string;
  /** stdin of `cat`: a line written here shows up in the log */
  stdin: HijackedStream;
}

/** A running `cat` without a Tty, its stdin attached (StdinOnce: closing stdin ends it). */
async function catWithStdin(context: CheckContext): Promise<CatSession> {
  const id = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['cat'], OpenStdin: true, StdinOnce: true, Tty: false });
  const stdin = await hijacked(context.engine, `/containers/${id}/attach`, { query: { stream: 1, stdin: 1, stdout: 1 } });
  const res = await context.engine.post(`/containers/${id}/start`);
  if (res.status !== 204) stdin.close();
  context.expect(res.status, 'POST /containers/{id}/start status').toBe(204);
  return { id, stdin };
}

/** Waits until the (unfollowed) log holds `text` on stdout: the line is written, not merely sent. */
async function logged({ engine }: CheckContext, id: string, text: string): Promise<void> {
  await until(
    async () => {
      const res = await engine.get(`/containers/${id}/logs`, { query: { stdout: 1 } });
      return res.status === 200 ? stdoutSoFar(res.body) : `status ${res.status}`;
    },
    (stdout) => stdout.includes(text),
    { what: `the log to hold ${JSON.stringify(text)}` },
  );
}

check('streams.logs.follow', {
  title: 'logs with follow=1 deliver each new line as it is written and end when the container exits',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['stream'],
}, async (context) => {
  const { id, stdin } = await catWithStdin(context);
  let followed: ResponseStream | undefined;
  try {
    await stdin.write('one\n');
    await logged(context, id, 'one\n');
    followed = await openLogs(context, id, { stdout: 1, follow: 1 });
    context.expect(followed.status, 'status').toBe(200);
    const stream = followed;
    const sawOne = await stream.waitFor((received) => stdoutSoFar(received).includes('one\n'));
    context.expect({ sawOne, ended: stream.ended }, `the followed log before the second line (received ${JSON.stringify(stdoutSoFar(stream.received))})`)
      .toEqual({ sawOne: true, ended: false });
    await stdin.write('two\n');
    const sawTwo = await stream.waitFor((received) => stdoutSoFar(received).includes('two\n'));
    context.expect(sawTwo, `a line written while following arrived (received ${JSON.stringify(stdoutSoFar(stream.received))})`).toBe(true);
    stdin.closeWrite(); // cat exits at the end of its stdin, and the container with it
    const ended = await stream.endsWithin();
    context.expect(ended, 'the followed log ended once the container exited').toBe(true);
    context.expect(decodeFrames(stream.received).stdout.toString('utf8'), 'stdout of the followed log').toBe('one\ntwo\n');
  } finally {
    followed?.close();
    stdin.close();
  }
});

check('streams.logs.follow-tail', {
  title: 'logs with follow=1 and tail=1 start from the last line, then deliver new lines',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['stream'],
}, async (context) => {
  const { id, stdin } = await catWithStdin(context);
  let followed: ResponseStream | undefined;
  try {
    await stdin.write('one\ntwo\n');
    await logged(context, id, 'two\n');
    followed = await openLogs(context, id, { stdout: 1, follow: 1, tail: 1 });
    context.expect(followed.status, 'status').toBe(200);
    const stream = followed;
    await stream.waitFor((received) => stdoutSoFar(received).includes('two\n'));
    await stdin.write('three\n');
    await stream.waitFor((received) => stdoutSoFar(received).includes('three\n'));
    context.expect(stdoutSoFar(stream.received), 'stdout of the followed log').toBe('two\nthree\n');
  } finally {
    followed?.close();
    stdin.close();
  }
});

/** Whole seconds of an RFC 3339 timestamp, rounded down (the fraction is cut before parsing, offset kept). */
function unixSeconds(timestamp: string): number {
  return Math.floor(Date.parse(timestamp.replace(/\.\d+/, '')) / 1000);
}

check('streams.logs.since', {
  title: 'logs with since=T (Unix seconds) leave out lines written before T; since=0 leaves out none',
  spec: '1 §4.1',
  since: '1.19',
  tags: ['stream'],
}, async (context) => {
  // More than a second apart, so that a whole second lies between the lines' timestamps.
  const id = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['sh', '-c', 'echo early; sleep 1.2; echo late'], Tty: false });
  const start = await context.engine.post(`/containers/${id}/start`);
  context.expect(start.status, 'POST /containers/{id}/start status').toBe(204);
  const read = async (query: Query) => {
    const res = await context.engine.get(`/containers/${id}/logs`, { query: { stdout: 1, ...query } });
    context.expect(res.status, `GET /containers/{id}/logs${encodeQuery(query)} status`).toBe(200);
    return decodeFrames(res.body).stdout.toString('utf8');
  };
  await until(() => read({}), (stdout) => stdout.includes('late\n'), { what: 'both lines in the log' });
  // The daemon's own timestamps say when the late line was written: no host clock is compared.
  const stamped = await read({ timestamps: 1 });
  const lateStamp = /^(\S+) late$/m.exec(stamped)?.[1] ?? '';
  context.expect(lateStamp, `the timestamp of the late line in ${JSON.stringify(stamped)}`).not.toBe('');
  const seen = { sinceLate: await read({ since: unixSeconds(lateStamp) }), sinceZero: await read({ since: 0 }) };
  context.expect(seen, `stdout per since (late line at ${lateStamp})`).toEqual({ sinceLate: 'late\n', sinceZero: 'early\nlate\n' });
});
