/**
 * Attaching to a container (spec/1 §4.1 attach rows, §4.4 streams): the hijacked connection with and
 * without Upgrade, framing without a Tty and the raw terminal with one, stdin, log replay, the
 * websocket variant, detach keys, and attaching to a container that has exited. Reads are bounded:
 * a stream that hangs ends the check instead of the run.
 */
import WebSocket from 'ws';
import { check, type CheckContext } from '../../harness/check.ts';
import { NonConformingResponse } from '../../harness/client/api-response.ts';
import { encodeQuery } from '../../harness/client/engine-client.ts';
import type { HijackedStream } from '../../harness/client/hijacked-stream.ts';
import { decodeFrames } from '../../harness/streams/frame-decoder.ts';
import { openStream } from '../../harness/client/streamed-response.ts';
import { containerState, exitedState, exitedWithoutTty, startContainer } from '../container-steps.ts';
import { OUT_AND_ERR, STREAM_TIMEOUT_MS, stdoutSoFar, upgradeHeaders } from '../stream-reading.ts';

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

/** Attaches (Upgrade: tcp, with `query`) to a created container, starts it and reads the stream to its end. */
async function attachedRun(context: CheckContext, config: Record<string, unknown>, query: Record<string, number> = ATTACH_ALL): Promise<{ id: string; body: Buffer }> {
  const id = await context.make.container({ Image: context.session.fixtureImage, ...config });
  const stream = await context.engine.hijack(`/containers/${id}/attach`, { query });
  try {
    await startContainer(context, id);
    return { id, body: await stream.readToEnd(STREAM_TIMEOUT_MS) };
  } finally {
    stream.close();
  }
}

check('streams.attach.upgrade', {
  title: 'attach with Upgrade: tcp answers 101 repeating Upgrade: tcp and Connection: Upgrade, with the raw-stream Content-Type',
  spec: '1 §4.4',
  since: '1.18',
  tags: ['stream'],
  covers: ['1:POST /containers/{id_or_name}/attach:header:Upgrade', '1:POST /containers/{id_or_name}/attach:status:101'],
}, async (context) => {
  const id = await exitedWithoutTty(context, ['echo', 'hello']);
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
  spec: '1 §4.4',
  since: '1.18',
  tags: ['stream'],
  covers: ['1:POST /containers/{id_or_name}/attach:status:200'],
}, async (context) => {
  // The log replay (stream=0) ends on its own, so a plain request gets a whole answer.
  const id = await exitedWithoutTty(context, ['echo', 'hello']);
  const res = await context.engine.post(`/containers/${id}/attach`, { query: { logs: 1, stream: 0, stdout: 1 }, signal: AbortSignal.timeout(STREAM_TIMEOUT_MS) });
  context.expect(res.status, 'status').toBe(200);
});

check('streams.attach.multiplexed', {
  title: 'attached to a container without Tty, stdout arrives in frames of type 1 and stderr in frames of type 2',
  spec: '1 §4.4',
  since: '1.18',
  tags: ['stream'],
  covers: [
    '1:POST /containers/{id_or_name}/attach',
    '1:POST /containers/{id_or_name}/attach:query:stream',
    '1:POST /containers/{id_or_name}/attach:query:stdout',
    '1:POST /containers/{id_or_name}/attach:query:stderr',
  ],
}, async (context) => {
  const { body } = await attachedRun(context, { Cmd: OUT_AND_ERR, Tty: false });
  const seen = streamTexts(body);
  context.expect(seen, `output per stream: ${JSON.stringify(seen)}`).toEqual({ stdout: 'out\n', stderr: 'err\n' });
});

/**
 * Runs `out` and `err` attached live (Upgrade: tcp, stream=1) with `selected` alone, then replays its
 * log with the same selection as a plain POST (logs=1, stream=0, no Upgrade): the text per stream of each.
 */
async function withOneStream(context: CheckContext, selected: 'stdout' | 'stderr'): Promise<Record<'live' | 'replay', { stdout: string; stderr: string }>> {
  const { id, body } = await attachedRun(context, { Cmd: OUT_AND_ERR, Tty: false }, { stream: 1, [selected]: 1 });
  await exitedState(context, id);
  const replay = await context.engine.post(`/containers/${id}/attach`, { query: { logs: 1, stream: 0, [selected]: 1 }, signal: AbortSignal.timeout(STREAM_TIMEOUT_MS) });
  context.expect(replay.status, `POST /containers/{id}/attach?logs=1&stream=0&${selected}=1 status`).toBe(200);
  return { live: streamTexts(body), replay: streamTexts(replay.body) };
}

check('streams.attach.stdout-only', {
  title: 'attach with stdout=1 alone carries stdout and no stderr: live (stream=1, Upgrade) and in the log replay of a plain POST (logs=1)',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['stream'],
  covers: ['1:POST /containers/{id_or_name}/attach:query:stdout', '1:POST /containers/{id_or_name}/attach:query:logs', '1:POST /containers/{id_or_name}/attach:status:200'],
}, async (context) => {
  const seen = await withOneStream(context, 'stdout');
  context.expect(seen, `output per stream: ${JSON.stringify(seen)}`).toEqual({ live: { stdout: 'out\n', stderr: '' }, replay: { stdout: 'out\n', stderr: '' } });
});

check('streams.attach.stderr-only', {
  title: 'attach with stderr=1 alone carries stderr and no stdout: live (stream=1, Upgrade) and in the log replay of a plain POST (logs=1)',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['stream'],
  covers: ['1:POST /containers/{id_or_name}/attach:query:stderr', '1:POST /containers/{id_or_name}/attach:query:logs', '1:POST /containers/{id_or_name}/attach:status:200'],
}, async (context) => {
  const seen = await withOneStream(context, 'stderr');
  context.expect(seen, `output per stream: ${JSON.stringify(seen)}`).toEqual({ live: { stdout: '', stderr: 'err\n' }, replay: { stdout: '', stderr: 'err\n' } });
});

check('streams.attach.tty-raw', {
  title: 'attached to a container with Tty, the stream is the raw terminal: no frames, \\n as \\r\\n, stderr joined',
  spec: '1 §4.4',
  since: '1.18',
  tags: ['stream'],
  covers: ['1:POST /containers/create:body:Tty'],
}, async (context) => {
  const { body } = await attachedRun(context, { Cmd: OUT_AND_ERR, Tty: true });
  context.expect(body.toString('latin1'), 'the raw stream').toBe('out\r\nerr\r\n');
});

check('streams.attach.stdin', {
  title: 'stdin written through attach reaches the process; closing it ends cat (OpenStdin, StdinOnce) and the container exits 0',
  spec: '1 §4.4',
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
  const id = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['cat'], OpenStdin: true, StdinOnce: true, Tty: false });
  const stream = await context.engine.hijack(`/containers/${id}/attach`, { query: { ...ATTACH_ALL, stdin: 1 } });
  try {
    await startContainer(context, id);
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
  context.expect(streamTexts(stream.received).stdout, 'stdout').toBe('hello\n');
});

check('streams.attach.logs-replay', {
  title: 'attach with logs=1 and stream=0 replays the log of each chosen stream, then ends',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['stream'],
  covers: [
    '1:POST /containers/{id_or_name}/attach:query:logs',
    '1:POST /containers/{id_or_name}/attach:query:stream',
    '1:POST /containers/{id_or_name}/attach:query:stdout',
    '1:POST /containers/{id_or_name}/attach:query:stderr',
  ],
}, async (context) => {
  const id = await exitedWithoutTty(context, OUT_AND_ERR);
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

check('streams.attach.not-running', {
  title: 'attach with stream=1 to a container that has exited is refused with 406, or taken: then its answer (200) carries the output of the next run',
  spec: '1 §3',
  since: '1.18',
  tags: ['state', 'error'],
  covers: ['1:POST /containers/{id_or_name}/attach', '1:POST /containers/{id_or_name}/attach:query:stream'],
}, async (context) => {
  // §3 and §7.2 give 406 "when attach is impossible", but the attach row lists no 406 and the spec
  // does not say that attaching to an exited container is impossible: a daemon may take the attach
  // and wait for the next run (dockerd and Podman do, answering only once it starts). Either is right.
  const id = await exitedWithoutTty(context, ['echo', 'hello']);
  const answer = openStream(context.engine, context.session.target.connection, `/containers/${id}/attach`, ATTACH_ALL, { method: 'POST', contentType: 'application/json', body: Buffer.alloc(0) });
  answer.catch(() => undefined); // judged below, whichever way the check goes on
  const early = await answerWithin(answer, REFUSAL_WAIT_MS);
  if (early?.status === 406) {
    early.close();
    return;
  }
  if (early === undefined) await startContainer(context, id);
  const stream = early ?? await answerWithin(answer, STREAM_TIMEOUT_MS);
  context.expect(stream !== undefined, `an answer to the attach within ${STREAM_TIMEOUT_MS} ms of the container's next start`).toBe(true);
  if (stream === undefined) return;
  try {
    if (stream.status === 406) return; // a refusal slower than the wait: still the spec's answer
    context.expect(stream.status, `${stream.describe}: neither refused with 406 nor taken with 200`).toBe(200);
    if (early !== undefined) await startContainer(context, id);
    const ended = await stream.endsWithin(STREAM_TIMEOUT_MS);
    context.expect({ ended, stdout: stdoutSoFar(stream.received) }, 'the taken attach once the container ran again').toEqual({ ended: true, stdout: 'hello\n' });
  } finally {
    stream.close();
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
function receivedUntilClosed({ socket, messages }: Handshake): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const done = (closed: boolean) => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(messages).toString('latin1'), closed });
    };
    const timer = setTimeout(() => done(false), STREAM_TIMEOUT_MS);
    if (socket.readyState === WebSocket.CLOSED) done(true);
    else socket.once('close', () => done(true));
  });
}

check('streams.attach-ws.output', {
  title: 'attach over a websocket carries stdin to the process and its output back',
  spec: '1 §4.1',
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

/** Attaches over a websocket to an exited container that wrote `out` and `err`, without stream: the log replay, until the daemon closes the socket. */
async function replayedOverWebsocket(context: CheckContext, query: Record<string, number>): Promise<{ text: string; closed: boolean }> {
  const id = await exitedWithoutTty(context, OUT_AND_ERR);
  const opened = await openedSocket(context, id, { logs: 1, stream: 0, ...query });
  try {
    return await receivedUntilClosed(opened);
  } finally {
    opened.socket.terminate();
  }
}

check('streams.attach-ws.logs-replay', {
  title: 'attach over a websocket with logs=1, stream=0, stdout=1 and stderr=1 replays the log of both streams, and the daemon closes the socket',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['stream'],
  covers: ['1:GET /containers/{id_or_name}/attach/ws:query:logs', '1:GET /containers/{id_or_name}/attach/ws:query:stream', '1:GET /containers/{id_or_name}/attach/ws:query:stdout', '1:GET /containers/{id_or_name}/attach/ws:query:stderr'],
}, async (context) => {
  const { text, closed } = await replayedOverWebsocket(context, { stdout: 1, stderr: 1 });
  // Unframed, the two streams cannot be told apart, and how their lines interleave in the log is not specified.
  const seen = { lines: text.split('\n').filter(Boolean).sort(), closed };
  context.expect(seen, `lines the websocket carried, and whether the daemon closed it: ${JSON.stringify(text)}`).toEqual({ lines: ['err', 'out'], closed: true });
});

check('streams.attach-ws.logs-stderr', {
  title: 'attach over a websocket with logs=1, stream=0 and stderr=1 only replays the stderr of the log alone',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['stream'],
  covers: ['1:GET /containers/{id_or_name}/attach/ws:query:logs', '1:GET /containers/{id_or_name}/attach/ws:query:stderr'],
}, async (context) => {
  const seen = await replayedOverWebsocket(context, { stderr: 1 });
  context.expect(seen, `what the websocket carried, and whether the daemon closed it: ${JSON.stringify(seen)}`).toEqual({ text: 'err\n', closed: true });
});

check('streams.attach-ws.bad-parameter', {
  title: 'attach over a websocket with a query that does not decode (logs=%zz, a malformed escape) is refused with 400 instead of the handshake',
  spec: '1 §7.2',
  since: '1.18',
  tags: ['error'],
  covers: ['1:GET /containers/{id_or_name}/attach/ws:status:400'],
}, async (context) => {
  const id = await exitedWithoutTty(context, ['true']);
  // The query is written by hand: a client would escape the `%`.
  const { socket, status } = await handshake(context, id, '?logs=%zz&stdout=1');
  socket.terminate();
  context.expect(status, 'status of the websocket handshake').toBe(400);
});

check('streams.attach.invalid-detach-keys', {
  title: 'attach with detachKeys that are no key sequence (ctrl-shipshape) answers 400 at 1.25',
  spec: '1 §4.1',
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
  spec: '1 §4.1',
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
  spec: '1 §4.1',
  since: '1.25',
  tags: ['stream', 'state'],
  covers: ['1:POST /containers/{id_or_name}/attach', '1:version-rule:1.25:detach-keys'],
}, detachesOnCtrlX);

check('streams.attach.detach-keys-custom.before-1.25', {
  title: 'detachKeys=ctrl-x on attach makes ctrl-x end the attach before 1.25 too, as dockerd 20.10 reads the query at every version',
  // spec/1 §7.4 lists detachKeys with 1.25; of earlier versions it says nothing
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  until: '1.24',
  tags: ['stream', 'state', 'version'],
}, detachesOnCtrlX);
