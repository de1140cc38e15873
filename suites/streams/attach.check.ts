/**
 * Attaching to a container (spec/1 §4.1 attach rows, §4.4 streams): the hijacked connection with and
 * without Upgrade, framing without a Tty and the raw terminal with one, stdin, log replay, the
 * websocket variant, detach keys, and attaching to a container that has exited. Reads are bounded:
 * a stream that hangs ends the check instead of the run.
 *
 * spec/1 §3 and §7.2 let a daemon refuse with 406 an attach to a container that is not running, so
 * the spec-level checks attach to running containers only: a process that waits for the check's go
 * (an exec touching a file) before it writes, or one that has written and sleeps on. What an attach
 * to a container that is not running does is streams.attach.not-running's rule alone.
 */
import WebSocket from 'ws';
import { check, type CheckContext } from '../../harness/check.ts';
import { NonConformingResponse } from '../../harness/client/api-response.ts';
import { encodeQuery } from '../../harness/client/engine-client.ts';
import type { HijackedStream } from '../../harness/client/hijacked-stream.ts';
import { decodeFrames } from '../../harness/streams/frame-decoder.ts';
import { openStream, type StreamedResponse } from '../../harness/client/streamed-response.ts';
import { until } from '../../harness/wait-until.ts';
import { containerState, exitedState, exitedWithoutTty, startContainer, startedContainer } from '../container-steps.ts';
import { STREAM_TIMEOUT_MS, stdoutSoFar, upgradeHeaders } from '../stream-reading.ts';

const ATTACH_ALL = { stream: 1, stdout: 1, stderr: 1 };
const CTRL_P = 0x10;
const CTRL_Q = 0x11;
const CTRL_X = 0x18;
/** How long an attach to an exited container may take to be refused before the check starts the container again. */
const REFUSAL_WAIT_MS = 3_000;

/** Per stream text of a whole multiplexed body, decoded strictly (bad framing fails the check). */
function streamTexts(body: Buffer): { stdout: string; stderr: string } {
  const { stdout, stderr } = decodeFrames(body);
  return { stdout: stdout.toString('utf8'), stderr: stderr.toString('utf8') };
}

/** What OUT_AND_ERR runs: one line to stdout, one to stderr, in that order. */
const OUT_AND_ERR_SCRIPT = 'echo out; echo err >&2';

/** The exec rows the go of {@link letGo} rests on (spec/1 §4.2). */
const LET_GO_QUOTES = ['201 {Id, Warnings} | 201, 404, 409 (container paused), 500 |', '200 `application/vnd.engine.raw-stream`; with Detach true the call returns after the command starts'];

/** A command that waits for the check's go (the file /tmp/go), then runs `script`. */
function afterGo(script: string): string[] {
  return ['sh', '-c', `until cat /tmp/go 2>/dev/null; do sleep 0.1; done; ${script}`];
}

/** Gives a running {@link afterGo} command its go: an exec of `touch /tmp/go`, started detached (spec/1 §4.2). */
async function letGo({ engine, expect }: CheckContext, id: string): Promise<void> {
  const created = await engine.post(`/containers/${id}/exec`, { json: { Cmd: ['touch', '/tmp/go'] } });
  expect(created.status, 'POST /containers/{id}/exec (touch /tmp/go) status').toBe(201);
  const started = await engine.post(`/exec/${created.json<{ Id: string }>().Id}/start`, { json: { Detach: true, Tty: false } });
  expect(started.status, 'POST /exec/{id}/start (touch /tmp/go, Detach) status').toBe(200);
}

/**
 * Attaches (Upgrade: tcp, with `query`) to a running container that writes out and err once attached
 * (`config` gives its Tty) and exits, and reads the stream to its end.
 */
async function attachedRun(context: CheckContext, config: Record<string, unknown>, query: Record<string, number> = ATTACH_ALL): Promise<{ id: string; body: Buffer }> {
  const id = await startedContainer(context, { Cmd: afterGo(OUT_AND_ERR_SCRIPT), ...config });
  const stream = await context.engine.hijack(`/containers/${id}/attach`, { query });
  try {
    await letGo(context, id);
    return { id, body: await stream.readToEnd(STREAM_TIMEOUT_MS) };
  } finally {
    stream.close();
  }
}

/** The log replay of a plain POST attach (logs=1, stream=0, no Upgrade) with `query`, which must answer 200. */
async function replayed(context: CheckContext, id: string, query: Record<string, number>): Promise<Buffer> {
  const res = await context.engine.post(`/containers/${id}/attach`, { query: { logs: 1, stream: 0, ...query }, signal: AbortSignal.timeout(STREAM_TIMEOUT_MS) });
  context.expect(res.status, `POST /containers/{id}/attach${encodeQuery({ logs: 1, stream: 0, ...query })} status`).toBe(200);
  return res.body;
}

/** Whether a log replay holds both lines: in its frames, or (framed some other way) in its bytes. */
function holdsOutAndErr(body: Buffer): boolean {
  try {
    const { stdout, stderr } = streamTexts(body);
    return stdout.includes('out') && stderr.includes('err');
  } catch {
    return body.includes('out') && body.includes('err');
  }
}

/**
 * A running container (no Tty) that has written out and err and sleeps on: waits until the log replay
 * of both streams holds both lines, whatever its framing (the checks decode it themselves).
 */
async function runningAfterOutput(context: CheckContext): Promise<string> {
  const id = await startedContainer(context, { Cmd: ['sh', '-c', `${OUT_AND_ERR_SCRIPT}; sleep 300`], Tty: false });
  await until(() => replayed(context, id, { stdout: 1, stderr: 1 }), holdsOutAndErr, { what: 'out and err in the log replay' });
  return id;
}

check('streams.attach.upgrade', {
  title: 'attach with Upgrade: tcp answers 101 repeating Upgrade: tcp and Connection: Upgrade, with the raw-stream Content-Type',
  spec: '1 §4.4, §4.1',
  quote: ['Hijacking: a client sends headers `Upgrade: tcp` and `Connection: Upgrade`.', 'When the daemon sees the Upgrade header it answers 101 UPGRADED (instead of 200 OK), repeats the same headers, and sets Content-Type `application/vnd.engine.raw-stream`.', '| POST /containers/{id_or_name}/attach |', '101, 200, 400, 404, 500'],
  since: '1.18',
  tags: ['stream'],
  covers: ['1:POST /containers/{id_or_name}/attach:header:Upgrade', '1:POST /containers/{id_or_name}/attach:status:101'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: ['sleep', '300'] });
  // hijack() resolves only on a 101 answer: any other status rejects it, and the exchange log shows it.
  const stream = await context.engine.hijack(`/containers/${id}/attach`, { query: { logs: 1, stream: 0, stdout: 1 } });
  try {
    context.expect(upgradeHeaders(stream.headers), 'headers of the 101 answer')
      .toEqual({ upgrade: 'tcp', connection: 'upgrade', contentType: context.dialect.rawStreamContentType });
  } finally {
    stream.close();
  }
});

check('streams.attach.no-upgrade', {
  title: 'attach without an Upgrade header answers 200',
  spec: '1 §4.4, §4.1',
  quote: ['Without the header the status is 200.', '| POST /containers/{id_or_name}/attach |', '101, 200, 400, 404, 500'],
  since: '1.18',
  tags: ['stream'],
  covers: ['1:POST /containers/{id_or_name}/attach:status:200'],
}, async (context) => {
  // The log replay (stream=0) ends on its own, so a plain request gets a whole answer.
  const id = await startedContainer(context, { Cmd: ['sleep', '300'] });
  const res = await context.engine.post(`/containers/${id}/attach`, { query: { logs: 1, stream: 0, stdout: 1 }, signal: AbortSignal.timeout(STREAM_TIMEOUT_MS) });
  context.expect(res.status, 'status').toBe(200);
});

check('streams.attach.multiplexed', {
  title: 'attached to a container without Tty, stdout arrives in frames of type 1 and stderr in frames of type 2',
  spec: '1 §4.4, §4.1, §4.2',
  quote: ['When Tty is disabled, the stream is multiplexed into frames.', 'Header: byte 0 is the stream type (0 stdin, written on stdout; 1 stdout; 2 stderr), bytes 1 to 3 are zero, bytes 4 to 7 are the payload size as an unsigned 32-bit big-endian integer.', '| POST /containers/{id_or_name}/attach |', 'logs, stream, stdin, stdout, stderr (booleans, default false; stdin needs stream=true; stdout and stderr return the log when logs=true and attach when stream=true)', ...LET_GO_QUOTES],
  since: '1.18',
  tags: ['stream'],
  covers: [
    '1:POST /containers/{id_or_name}/attach',
    '1:POST /containers/{id_or_name}/attach:query:stream',
    '1:POST /containers/{id_or_name}/attach:query:stdout',
    '1:POST /containers/{id_or_name}/attach:query:stderr',
  ],
}, async (context) => {
  const { body } = await attachedRun(context, { Tty: false });
  const seen = streamTexts(body);
  context.expect(seen, `output per stream: ${JSON.stringify(seen)}`).toEqual({ stdout: 'out\n', stderr: 'err\n' });
});

/**
 * Runs `out` and `err` attached live (Upgrade: tcp, stream=1) with `selected` alone; then, in a running
 * container that has written both, replays the log with the same selection as a plain POST (logs=1,
 * stream=0, no Upgrade): the text per stream of each.
 */
async function withOneStream(context: CheckContext, selected: 'stdout' | 'stderr'): Promise<Record<'live' | 'replay', { stdout: string; stderr: string }>> {
  const { body } = await attachedRun(context, { Tty: false }, { stream: 1, [selected]: 1 });
  const id = await runningAfterOutput(context);
  return { live: streamTexts(body), replay: streamTexts(await replayed(context, id, { [selected]: 1 })) };
}

check('streams.attach.stdout-only', {
  title: 'attach with stdout=1 alone carries stdout and no stderr: live (stream=1, Upgrade) and in the log replay of a plain POST (logs=1)',
  spec: '1 §4.1, §4.4, §4.2',
  quote: ['| POST /containers/{id_or_name}/attach |', 'logs, stream, stdin, stdout, stderr (booleans, default false; stdin needs stream=true; stdout and stderr return the log when logs=true and attach when stream=true)', 'Without the header the status is 200.', 'When Tty is disabled, the stream is multiplexed into frames.', 'Header: byte 0 is the stream type (0 stdin, written on stdout; 1 stdout; 2 stderr), bytes 1 to 3 are zero, bytes 4 to 7 are the payload size as an unsigned 32-bit big-endian integer.', ...LET_GO_QUOTES],
  since: '1.18',
  tags: ['stream'],
  covers: ['1:POST /containers/{id_or_name}/attach:query:stdout', '1:POST /containers/{id_or_name}/attach:query:logs', '1:POST /containers/{id_or_name}/attach:status:200'],
}, async (context) => {
  const seen = await withOneStream(context, 'stdout');
  context.expect(seen, `output per stream: ${JSON.stringify(seen)}`).toEqual({ live: { stdout: 'out\n', stderr: '' }, replay: { stdout: 'out\n', stderr: '' } });
});

check('streams.attach.stderr-only', {
  title: 'attach with stderr=1 alone carries stderr and no stdout: live (stream=1, Upgrade) and in the log replay of a plain POST (logs=1)',
  spec: '1 §4.1, §4.4, §4.2',
  quote: ['| POST /containers/{id_or_name}/attach |', 'logs, stream, stdin, stdout, stderr (booleans, default false; stdin needs stream=true; stdout and stderr return the log when logs=true and attach when stream=true)', 'Without the header the status is 200.', 'When Tty is disabled, the stream is multiplexed into frames.', 'Header: byte 0 is the stream type (0 stdin, written on stdout; 1 stdout; 2 stderr), bytes 1 to 3 are zero, bytes 4 to 7 are the payload size as an unsigned 32-bit big-endian integer.', ...LET_GO_QUOTES],
  since: '1.18',
  tags: ['stream'],
  covers: ['1:POST /containers/{id_or_name}/attach:query:stderr', '1:POST /containers/{id_or_name}/attach:query:logs', '1:POST /containers/{id_or_name}/attach:status:200'],
}, async (context) => {
  const seen = await withOneStream(context, 'stderr');
  context.expect(seen, `output per stream: ${JSON.stringify(seen)}`).toEqual({ live: { stdout: '', stderr: 'err\n' }, replay: { stdout: '', stderr: 'err\n' } });
});

check('streams.attach.tty-raw', {
  title: 'attached to a container with Tty, the stream is the raw terminal: no frames, stderr joined',
  spec: '1 §4.4, §2.3, §4.2',
  quote: ['When Tty was enabled at create, the stream is the raw data of the process pseudo-terminal and the client stdin (no framing).', '| Tty | boolean | attach standard streams to a tty, including stdin if not closed |', ...LET_GO_QUOTES],
  since: '1.18',
  tags: ['stream'],
  covers: ['1:POST /containers/create:body:Tty'],
}, async (context) => {
  const { body } = await attachedRun(context, { Tty: true });
  // The terminal may write a line's end as \r\n (a pseudo-terminal's line discipline does): the spec says only "raw data".
  context.expect(body.toString('latin1'), 'the raw stream').toMatch(/^out\r?\nerr\r?\n$/);
});

check('streams.attach.tty-crlf', {
  title: 'attached to a container with Tty, the raw terminal writes each \\n as \\r\\n',
  // spec/1 §4.4.2 says "the raw data of the process pseudo-terminal"; how the terminal writes a line's end it does not say
  spec: '1 §4.4',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['stream'],
}, async (context) => {
  const { body } = await attachedRun(context, { Tty: true });
  context.expect(body.toString('latin1'), 'the raw stream').toBe('out\r\nerr\r\n');
});

check('streams.attach.stdin', {
  title: 'stdin written through attach reaches the process; disconnecting the one attached client closes it (StdinOnce), so cat ends and the container exits 0',
  spec: '1 §4.4, §1, §2.3, §4.1',
  quote: ['For attach and logs the HTTP connection can be hijacked to carry stdin, stdout and stderr on one socket.', 'When Tty is disabled, the stream is multiplexed into frames.', 'Header: byte 0 is the stream type (0 stdin, written on stdout; 1 stdout; 2 stderr), bytes 1 to 3 are zero, bytes 4 to 7 are the payload size as an unsigned 32-bit big-endian integer.', '| POST /containers/{id_or_name}/attach |', 'logs, stream, stdin, stdout, stderr (booleans, default false; stdin needs stream=true; stdout and stderr return the log when logs=true and attach when stream=true)', '| OpenStdin | boolean | open stdin |', '| StdinOnce | boolean | close stdin after the one attached client disconnects |'],
  since: '1.18',
  tags: ['stream', 'state'],
  covers: [
    '1:POST /containers/{id_or_name}/attach:query:stdin',
    '1:POST /containers/{id_or_name}/attach:query:stream',
    '1:POST /containers/create:body:OpenStdin',
    '1:POST /containers/create:body:StdinOnce',
    '1:POST /containers/create:body:AttachStdin',
  ],
}, async (context) => {
  // cat writes only what it is sent, so it can run before the attach is in place.
  const id = await startedContainer(context, { Cmd: ['cat'], OpenStdin: true, StdinOnce: true, Tty: false });
  const stream = await context.engine.hijack(`/containers/${id}/attach`, { query: { ...ATTACH_ALL, stdin: 1 } });
  try {
    await stream.write('hello\n');
    await stream.readUntil((received) => stdoutSoFar(received).includes('hello\n'), STREAM_TIMEOUT_MS);
  } finally {
    // The one attached client disconnects: StdinOnce closes cat's stdin.
    stream.close();
  }
  context.expect(streamTexts(stream.received).stdout, 'stdout').toBe('hello\n');
  const final = await exitedState(context, id, 'cat to exit once the attached client disconnected');
  context.expect(final.ExitCode, 'ExitCode').toBe(0);
});

check('streams.attach.stdin-half-close', {
  title: 'half-closing the attached connection (the end of its stdin) ends cat\'s stdin with StdinOnce, and the attach stream ends with the container',
  // spec/1 §2.3 StdinOnce closes stdin "after the one attached client disconnects"; that the end of
  // the client's stdin alone does it (the connection still open for the output) it does not say
  spec: '1 §2.3',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['stream', 'state'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: ['cat'], OpenStdin: true, StdinOnce: true, Tty: false });
  const stream = await context.engine.hijack(`/containers/${id}/attach`, { query: { ...ATTACH_ALL, stdin: 1 } });
  try {
    await stream.write('hello\n');
    await stream.readUntil((received) => stdoutSoFar(received).includes('hello\n'), STREAM_TIMEOUT_MS);
    stream.closeWrite();
    const ended = await stream.endsWithin(STREAM_TIMEOUT_MS);
    context.expect(ended, `the attach stream ended after stdin was closed (received ${JSON.stringify(stream.received.toString('latin1'))})`).toBe(true);
  } finally {
    stream.close();
  }
  const final = await exitedState(context, id, 'cat to exit once its stdin closed');
  context.expect(final.ExitCode, 'ExitCode').toBe(0);
});

check('streams.attach.logs-replay', {
  title: 'attach with logs=1 and stream=0 replays the log of each chosen stream, then ends',
  spec: '1 §4.1, §4.4',
  quote: ['| POST /containers/{id_or_name}/attach |', 'logs, stream, stdin, stdout, stderr (booleans, default false; stdin needs stream=true; stdout and stderr return the log when logs=true and attach when stream=true)', 'When Tty is disabled, the stream is multiplexed into frames.', 'Header: byte 0 is the stream type (0 stdin, written on stdout; 1 stdout; 2 stderr), bytes 1 to 3 are zero, bytes 4 to 7 are the payload size as an unsigned 32-bit big-endian integer.'],
  since: '1.18',
  tags: ['stream'],
  covers: [
    '1:POST /containers/{id_or_name}/attach:query:logs',
    '1:POST /containers/{id_or_name}/attach:query:stream',
    '1:POST /containers/{id_or_name}/attach:query:stdout',
    '1:POST /containers/{id_or_name}/attach:query:stderr',
  ],
}, async (context) => {
  const id = await runningAfterOutput(context);
  const stream = await context.engine.hijack(`/containers/${id}/attach`, { query: { logs: 1, stream: 0, stdout: 1, stderr: 1 } });
  try {
    const ended = await stream.endsWithin(STREAM_TIMEOUT_MS);
    context.expect(ended, `the replay ended (received ${JSON.stringify(stream.received.toString('latin1'))})`).toBe(true);
  } finally {
    stream.close();
  }
  const seen = streamTexts(stream.received);
  context.expect(seen, `replayed output per stream: ${JSON.stringify(seen)}`).toEqual({ stdout: 'out\n', stderr: 'err\n' });
});

/** The answer if it has come within `ms`, else undefined (the request goes on). */
async function answerWithin<T>(answer: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const waited = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ms);
    });
    return await Promise.race([answer, waited]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Attaches (stream=1, no Upgrade) to a container that has exited. A 406 within the wait ends it there;
 * an answer that does not come in the wait gets the container started again, since a daemon may hold
 * the attach for the next run. Returns the attach if it was taken (200), the container started again
 * either way, or undefined if it was refused with 406.
 */
async function attachToExited(context: CheckContext): Promise<StreamedResponse | undefined> {
  const id = await exitedWithoutTty(context, ['echo', 'hello']);
  const answer = openStream(context.engine, context.session.target.connection, `/containers/${id}/attach`, ATTACH_ALL, { method: 'POST', contentType: 'application/json', body: Buffer.alloc(0) });
  answer.catch(() => undefined); // judged below, whichever way the check goes on
  const early = await answerWithin(answer, REFUSAL_WAIT_MS);
  if (early?.status === 406) {
    early.close();
    return undefined;
  }
  if (early === undefined) await startContainer(context, id);
  const stream = early ?? await answerWithin(answer, STREAM_TIMEOUT_MS);
  if (stream === undefined) throw new NonConformingResponse(`no answer to the attach within ${STREAM_TIMEOUT_MS} ms of the container's next start`);
  if (stream.status === 406) { // a refusal slower than the wait: still the spec's answer
    stream.close();
    return undefined;
  }
  try {
    context.expect(stream.status, `${stream.describe}: neither refused with 406 nor taken with 200`).toBe(200);
  } catch (error) {
    stream.close();
    throw error;
  }
  if (early !== undefined) await startContainer(context, id);
  return stream;
}

check('streams.attach.not-running', {
  title: 'attach with stream=1 to a container that has exited is refused with 406, or taken with 200',
  spec: '1 §3, §7.2, §4.1, §4.4',
  quote: ['| create, attach | container not running when attach is impossible | 406 |', '406 impossible to attach because the container is not running', '| POST /containers/{id_or_name}/attach |', '101, 200, 400, 404, 500', 'Without the header the status is 200.'],
  since: '1.18',
  tags: ['state', 'error'],
  covers: ['1:POST /containers/{id_or_name}/attach', '1:POST /containers/{id_or_name}/attach:query:stream'],
}, async (context) => {
  // §3 and §7.2 give 406 "when attach is impossible", but the attach row lists no 406 and the spec
  // does not say that attaching to an exited container is impossible: a daemon may take the attach.
  // What a taken attach then carries the spec does not say (streams.attach.not-running.next-run has dockerd's).
  const taken = await attachToExited(context);
  taken?.close();
});

check('streams.attach.not-running.next-run', {
  title: 'attach with stream=1 to a container that has exited is taken and answered once the container starts again, carrying the output of that run',
  // spec/1 §3 allows a 406 here; what an attach that is taken carries the spec does not say
  spec: '1 §3',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const taken = await attachToExited(context);
  context.expect(taken !== undefined, 'the attach was taken (not refused with 406)').toBe(true);
  if (taken === undefined) return;
  try {
    const ended = await taken.endsWithin(STREAM_TIMEOUT_MS);
    context.expect({ ended, stdout: stdoutSoFar(taken.received) }, 'the taken attach once the container ran again').toEqual({ ended: true, stdout: 'hello\n' });
  } finally {
    taken.close();
  }
});

/** A websocket handshake with GET /containers/{id}/attach/ws on the check's target: the socket, and the status it was answered. */
interface Handshake {
  socket: WebSocket;
  /** 101 once the socket is open, else the status of the refusal */
  status: number;
  path: string;
  /** every message received, from the handshake on (one can come with the handshake's answer) */
  messages: Buffer[];
}

/** Sends the handshake (with the query as written) and resolves on its answer; the exchange log shows it. */
async function handshake({ engine, session }: CheckContext, id: string, queryText: string): Promise<Handshake> {
  const prefix = engine.version === undefined ? '' : `/v${engine.version}`;
  const path = `${prefix}/containers/${id}/attach/ws${queryText}`;
  const { socketPath, origin, tls } = session.target.connection;
  const url = socketPath ? `ws+unix://${socketPath}:${path}` : `${origin.replace(/^http/, 'ws')}${path}`;
  const record: { method: string; path: string; status?: number } = { method: 'GET', path: `${path} (websocket)` };
  engine.exchanges.push(record);
  const socket = new WebSocket(url, tls ? { ca: tls.ca, cert: tls.cert, key: tls.key, rejectUnauthorized: !tls.skipVerify } : {});
  socket.on('upgrade', (response) => {
    record.status = response.statusCode;
  });
  const messages: Buffer[] = [];
  socket.on('message', (data: WebSocket.RawData) => {
    messages.push(Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data));
  });
  const status = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the websocket handshake did not complete within ${STREAM_TIMEOUT_MS} ms`)), STREAM_TIMEOUT_MS);
    socket.once('open', () => {
      clearTimeout(timer);
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => {
      clearTimeout(timer);
      record.status = response.statusCode;
      resolve(response.statusCode ?? 0);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  return { socket, status, path, messages };
}

/** Opens GET /containers/{id}/attach/ws on the check's target; resolves once the handshake is done. */
async function openedSocket(context: CheckContext, id: string, query: Record<string, number>): Promise<Handshake> {
  const opened = await handshake(context, id, encodeQuery(query));
  if (opened.status !== 101) {
    opened.socket.terminate();
    throw new NonConformingResponse(`GET ${opened.path} (websocket) was answered ${opened.status}, not 101`);
  }
  return opened;
}

/** Everything the socket receives until the daemon closes it; false as `closed` when it stays open past the deadline. */
function receivedUntilClosed({ socket, messages }: Handshake): Promise<{ bytes: Buffer; closed: boolean }> {
  return new Promise((resolve) => {
    const done = (closed: boolean) => {
      clearTimeout(timer);
      resolve({ bytes: Buffer.concat(messages), closed });
    };
    const timer = setTimeout(() => done(false), STREAM_TIMEOUT_MS);
    if (socket.readyState === WebSocket.CLOSED) done(true);
    else socket.once('close', () => done(true));
  });
}

check('streams.attach-ws.output', {
  title: 'attach over a websocket carries stdin to the process and its output back',
  spec: '1 §4.1',
  quote: ['| GET /containers/{id_or_name}/attach/ws | same query as attach; websocket handshake per RFC 6455 | none | websocket stream | 200, 400, 404, 500 |', 'logs, stream, stdin, stdout, stderr (booleans, default false; stdin needs stream=true; stdout and stderr return the log when logs=true and attach when stream=true)'],
  since: '1.18',
  tags: ['stream'],
  covers: [
    '1:GET /containers/{id_or_name}/attach/ws',
    '1:GET /containers/{id_or_name}/attach/ws:query:stream',
    '1:GET /containers/{id_or_name}/attach/ws:query:stdin',
    '1:GET /containers/{id_or_name}/attach/ws:query:stdout',
    '1:GET /containers/{id_or_name}/attach/ws:status:200',
  ],
}, async (context) => {
  // cat answers only what it was sent, so nothing it writes can come before the socket was attached.
  const id = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['cat'], OpenStdin: true, Tty: false });
  await startContainer(context, id);
  const { socket, messages } = await openedSocket(context, id, { stream: 1, stdin: 1, stdout: 1 });
  try {
    const received = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), STREAM_TIMEOUT_MS);
      socket.on('message', () => {
        if (Buffer.concat(messages).includes('websocket-hello')) {
          clearTimeout(timer);
          resolve(true);
        }
      });
    });
    socket.send('websocket-hello\n');
    const arrived = await received;
    context.expect(arrived, `cat's answer came back over the websocket (received ${JSON.stringify(Buffer.concat(messages).toString('latin1'))})`).toBe(true);
  } finally {
    socket.terminate();
  }
});

/**
 * What a websocket carried. The row says "websocket stream" and no more, while spec/1 §4.4.3 frames an
 * attach without a Tty: bytes that decode as multiplexed frames are read per stream, any others as
 * raw text, in which the two streams cannot be told apart.
 */
type WebsocketOutput = { framed: true; stdout: string; stderr: string } | { framed: false; text: string };

function websocketOutput(bytes: Buffer): WebsocketOutput {
  if (bytes.length > 0) {
    try {
      return { framed: true, ...streamTexts(bytes) };
    } catch {
      // not multiplexed frames: raw text
    }
  }
  return { framed: false, text: bytes.toString('utf8') };
}

/**
 * Attaches over a websocket, without stream, to a running container (no Tty) that has written `out`
 * and `err`: the log replay, until the daemon closes the socket.
 */
async function replayedOverWebsocket(context: CheckContext, query: Record<string, number>): Promise<{ output: WebsocketOutput; closed: boolean }> {
  const id = await runningAfterOutput(context);
  const opened = await openedSocket(context, id, { logs: 1, stream: 0, ...query });
  try {
    const { bytes, closed } = await receivedUntilClosed(opened);
    return { output: websocketOutput(bytes), closed };
  } finally {
    opened.socket.terminate();
  }
}

check('streams.attach-ws.logs-replay', {
  title: 'attach over a websocket with logs=1, stream=0, stdout=1 and stderr=1 replays the log of both streams, and the daemon closes the socket',
  spec: '1 §4.1',
  quote: ['| GET /containers/{id_or_name}/attach/ws | same query as attach; websocket handshake per RFC 6455 | none | websocket stream | 200, 400, 404, 500 |', 'logs, stream, stdin, stdout, stderr (booleans, default false; stdin needs stream=true; stdout and stderr return the log when logs=true and attach when stream=true)'],
  since: '1.18',
  tags: ['stream'],
  covers: ['1:GET /containers/{id_or_name}/attach/ws:query:logs', '1:GET /containers/{id_or_name}/attach/ws:query:stream', '1:GET /containers/{id_or_name}/attach/ws:query:stdout', '1:GET /containers/{id_or_name}/attach/ws:query:stderr'],
}, async (context) => {
  const { output, closed } = await replayedOverWebsocket(context, { stdout: 1, stderr: 1 });
  if (output.framed) {
    context.expect({ stdout: output.stdout, stderr: output.stderr, closed }, 'per stream, what the websocket carried in frames, and whether the daemon closed it').toEqual({ stdout: 'out\n', stderr: 'err\n', closed: true });
  } else {
    // Unframed, the two streams cannot be told apart, and how their lines interleave in the log is not specified.
    const seen = { lines: output.text.split('\n').filter(Boolean).sort(), closed };
    context.expect(seen, `lines the websocket carried, and whether the daemon closed it: ${JSON.stringify(output.text)}`).toEqual({ lines: ['err', 'out'], closed: true });
  }
});

check('streams.attach-ws.logs-stderr', {
  title: 'attach over a websocket with logs=1, stream=0 and stderr=1 only replays the stderr of the log alone',
  spec: '1 §4.1',
  quote: ['| GET /containers/{id_or_name}/attach/ws | same query as attach; websocket handshake per RFC 6455 | none | websocket stream | 200, 400, 404, 500 |', 'logs, stream, stdin, stdout, stderr (booleans, default false; stdin needs stream=true; stdout and stderr return the log when logs=true and attach when stream=true)'],
  since: '1.18',
  tags: ['stream'],
  covers: ['1:GET /containers/{id_or_name}/attach/ws:query:logs', '1:GET /containers/{id_or_name}/attach/ws:query:stderr'],
}, async (context) => {
  const { output, closed } = await replayedOverWebsocket(context, { stderr: 1 });
  const seen = output.framed ? { stdout: output.stdout, stderr: output.stderr, closed } : { text: output.text, closed };
  const wanted = output.framed ? { stdout: '', stderr: 'err\n', closed: true } : { text: 'err\n', closed: true };
  context.expect(seen, `what the websocket carried (${output.framed ? 'in frames' : 'unframed'}), and whether the daemon closed it`).toEqual(wanted);
});

check('streams.attach-ws.bad-parameter', {
  title: 'attach over a websocket with a query that does not decode (logs=%zz, a malformed escape) is refused with 400 instead of the handshake',
  spec: '1 §7.2, §4',
  quote: ['400 bad parameter', '| GET /containers/{id_or_name}/attach/ws | same query as attach; websocket handshake per RFC 6455 | none | websocket stream | 200, 400, 404, 500 |', 'Boolean query parameters accept 1, True, true or 0, False, false.'],
  since: '1.18',
  tags: ['error'],
  covers: ['1:GET /containers/{id_or_name}/attach/ws:status:400'],
}, async (context) => {
  // A running container: to one that is not, a daemon may answer 406 first (spec/1 §3).
  const id = await startedContainer(context, { Cmd: ['sleep', '300'] });
  // The query is written by hand: a client would escape the `%`.
  const { socket, status } = await handshake(context, id, '?logs=%zz&stdout=1');
  socket.terminate();
  context.expect(status, 'status of the websocket handshake').toBe(400);
});

check('streams.attach.bad-parameter', {
  title: 'attach with a query that does not decode (logs=%zz, a malformed escape) to a running container answers 400',
  spec: '1 §7.2, §4',
  quote: ['400 bad parameter', '| POST /containers/{id_or_name}/attach |', '101, 200, 400, 404, 500', 'Boolean query parameters accept 1, True, true or 0, False, false.'],
  since: '1.18',
  tags: ['error'],
  covers: ['1:POST /containers/{id_or_name}/attach:status:400'],
}, async (context) => {
  // A running container: to one that is not, a daemon may answer 406 first (spec/1 §3).
  const id = await startedContainer(context, { Cmd: ['sleep', '300'] });
  // The query is written by hand (a client would escape the `%`), and the request asks for no Upgrade.
  const path = `/containers/${id}/attach?logs=%zz&stdout=1`;
  const res = await context.engine.post(path, { signal: AbortSignal.timeout(STREAM_TIMEOUT_MS) }).catch((error: unknown) => {
    // An answer that never comes is the target's: it fails the check (not an error of the check).
    throw new NonConformingResponse(`POST ${path} got no answer within ${STREAM_TIMEOUT_MS} ms (${(error as Error).name})`);
  });
  context.expect(res.status, `status: ${res.text().trim()}`).toBe(400);
});

check('streams.attach.invalid-detach-keys', {
  title: 'attach with detachKeys that are no key sequence (ctrl-shipshape) answers 400 at 1.25',
  // spec/1 defines detachKeys on the start row only ([1.25], §4.1); the attach row has no such parameter
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.25',
  tags: ['error', 'version'],
  covers: ['1:POST /containers/{id_or_name}/attach:status:400', '1:version-rule:1.25:detach-keys'],
}, async (context) => {
  // The keys are read before the container's state matters: a created container will do.
  const id = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] });
  const res = await context.engine.post(`/containers/${id}/attach`, { query: { ...ATTACH_ALL, detachKeys: 'ctrl-shipshape' }, signal: AbortSignal.timeout(STREAM_TIMEOUT_MS) });
  // Only the status: dockerd writes this refusal on the raw connection, as plain text at every version.
  context.expect(res.status, `status: ${res.text().trim()}`).toBe(400);
});

/** Attaches with stdin to a running `cat` on a Tty and waits for the echo that shows stdin is wired. */
async function interactiveSession(context: CheckContext, query: Record<string, string | number> = {}): Promise<{ id: string; stream: HijackedStream }> {
  const id = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['cat'], OpenStdin: true, Tty: true });
  await startContainer(context, id);
  const stream = await context.engine.hijack(`/containers/${id}/attach`, { query: { ...ATTACH_ALL, stdin: 1, ...query } });
  try {
    await stream.write('hello\n');
    await stream.readUntil((received) => received.includes('hello'), STREAM_TIMEOUT_MS);
  } catch (error) {
    stream.close();
    throw error;
  }
  return { id, stream };
}

async function expectDetached(context: CheckContext, id: string, stream: HijackedStream, keys: string): Promise<void> {
  const ended = await stream.endsWithin(STREAM_TIMEOUT_MS);
  context.expect(ended, `the attach stream ended after ${keys} (received ${JSON.stringify(stream.received.toString('latin1'))})`).toBe(true);
  const after = await containerState(context, id);
  context.expect(after.Running, `State.Running after detaching with ${keys}`).toBe(true);
}

check('streams.attach.detach-keys-default', {
  title: 'ctrl-p ctrl-q, the default detach keys, end the attach and leave the container running',
  // spec/1 names no default detach keys, and no detachKeys on the attach row (only the start row has them, §4.1)
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.25',
  tags: ['stream', 'state'],
  covers: [
    '1:POST /containers/{id_or_name}/attach',
    '1:POST /containers/{id_or_name}/attach:query:stream',
    '1:POST /containers/{id_or_name}/attach:query:stdin',
  ],
}, async (context) => {
  const { id, stream } = await interactiveSession(context);
  try {
    await stream.write(Buffer.from([CTRL_P, CTRL_Q]));
    await expectDetached(context, id, stream, 'ctrl-p ctrl-q');
  } finally {
    stream.close();
  }
});

/** An attach with detachKeys=ctrl-x: ctrl-x ends it and the container keeps running. */
async function detachesOnCtrlX(context: CheckContext): Promise<void> {
  const { id, stream } = await interactiveSession(context, { detachKeys: 'ctrl-x' });
  try {
    await stream.write(Buffer.from([CTRL_X]));
    await expectDetached(context, id, stream, 'ctrl-x');
  } finally {
    stream.close();
  }
}

check('streams.attach.detach-keys-custom', {
  title: 'detachKeys=ctrl-x on attach makes ctrl-x end the attach and leave the container running',
  // spec/1 defines detachKeys on the start row only ([1.25], §4.1), and says nothing of what the keys do
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.25',
  tags: ['stream', 'state'],
  covers: ['1:POST /containers/{id_or_name}/attach', '1:version-rule:1.25:detach-keys'],
}, detachesOnCtrlX);

check('streams.attach.detach-keys-custom.before-1.25', {
  title: 'detachKeys=ctrl-x on attach makes ctrl-x end the attach before 1.25 too, as dockerd 20.10 reads the query at every version',
  // spec/1 defines detachKeys on the start row only ([1.25], §4.1, §9.4); the attach row has none at any version
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  until: '1.24',
  tags: ['stream', 'state', 'version'],
}, detachesOnCtrlX);
