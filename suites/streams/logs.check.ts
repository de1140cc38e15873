/**
 * GET /containers/{id}/logs as a stream (spec/1 §4.1 logs row, §4.4): follow keeps the response open
 * and delivers output as the process writes it; tail and since choose where the log starts. The
 * process is `cat` fed through attach, so each line is written exactly when the check says, and the
 * check never sleeps for a state. (tail and timestamps of a finished log are checks of the containers
 * suite.) The row serves logs "only for containers using the json-file or journald log drivers" and
 * the spec gives no default driver, so every container here asks for json-file.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { encodeQuery, type Query } from '../../harness/client/engine-client.ts';
import type { HijackedStream } from '../../harness/client/hijacked-stream.ts';
import { openStream, type StreamedResponse } from '../../harness/client/streamed-response.ts';
import { decodeFrames } from '../../harness/streams/frame-decoder.ts';
import { until } from '../../harness/wait-until.ts';
import { containerState, startContainer, startedContainer } from '../container-steps.ts';
import { stdoutSoFar } from '../stream-reading.ts';

interface CatSession {
  id: string;
  /** stdin of `cat`: a line written here shows up in the log */
  stdin: HijackedStream;
}

/** The log driver the row names (spec/1 §4.1: logs "only for containers using the json-file or journald log drivers"). */
const JSON_FILE_LOG = { LogConfig: { Type: 'json-file', Config: {} } };

/**
 * A running `cat` without a Tty, its stdin attached once it runs (to a container that is not running a
 * daemon may refuse an attach with 406, spec/1 §3). StdinOnce: the attached client's disconnect ends it.
 */
async function catWithStdin(context: CheckContext, attachFirst = false): Promise<CatSession> {
  const config = { Cmd: ['cat'], OpenStdin: true, StdinOnce: true, Tty: false, HostConfig: JSON_FILE_LOG };
  if (attachFirst) {
    const id = await context.make.container({ Image: context.session.fixtureImage, ...config });
    const stdin = await context.engine.hijack(`/containers/${id}/attach`, { query: { stream: 1, stdin: 1, stdout: 1 } });
    try {
      await startContainer(context, id);
    } catch (error) {
      stdin.close();
      throw error;
    }
    return { id, stdin };
  }
  const id = await startedContainer(context, config);
  return { id, stdin: await context.engine.hijack(`/containers/${id}/attach`, { query: { stream: 1, stdin: 1, stdout: 1 } }) };
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

/**
 * Runs `cat`, writes `written` to it and waits until the log holds it, then follows the log with
 * `query` (which must answer 200) and hands the followed log and cat's stdin to `use`.
 */
async function followingLog(context: CheckContext, written: string, query: Query, use: (stream: StreamedResponse, stdin: HijackedStream) => Promise<void>, attachFirst = false): Promise<void> {
  const { id, stdin } = await catWithStdin(context, attachFirst);
  let followed: StreamedResponse | undefined;
  try {
    await stdin.write(written);
    await logged(context, id, written);
    followed = await openStream(context.engine, context.session.target.connection, `/containers/${id}/logs`, query);
    context.expect(followed.status, 'status').toBe(200);
    await use(followed, stdin);
  } finally {
    followed?.close();
    stdin.close();
  }
}

check('streams.logs.follow', {
  title: 'logs with follow=1 deliver each new line as it is written, the response staying open',
  spec: '1 §4.1, §4.4',
  quote: ['| GET /containers/{id_or_name}/logs |', 'details (boolean, [1.25], default false), follow (default false), stdout (default false), stderr (default false), since (Unix timestamp integer, [1.19+], default 0 = unfiltered), timestamps (default false), tail (`all` or a number, default all)', 'stream, see 4.4; only for containers using the json-file or journald log drivers', '101 (hint for proxy about hijacking), 200 (no upgrade header), 404, 500', 'When Tty is disabled, the stream is multiplexed into frames.', 'Header: byte 0 is the stream type (0 stdin, written on stdout; 1 stdout; 2 stderr), bytes 1 to 3 are zero, bytes 4 to 7 are the payload size as an unsigned 32-bit big-endian integer.'],
  since: '1.18',
  tags: ['stream'],
  covers: ['1:GET /containers/{id_or_name}/logs:query:follow'],
}, async (context) => {
  await followingLog(context, 'one\n', { stdout: 1, follow: 1 }, async (stream, stdin) => {
    const sawOne = await stream.waitFor((received) => stdoutSoFar(received).includes('one\n'));
    context.expect({ sawOne, ended: stream.ended }, `the followed log before the second line (received ${JSON.stringify(stdoutSoFar(stream.received))})`)
      .toEqual({ sawOne: true, ended: false });
    await stdin.write('two\n');
    const sawTwo = await stream.waitFor((received) => stdoutSoFar(received).includes('two\n'));
    context.expect(sawTwo, `a line written while following arrived (received ${JSON.stringify(stdoutSoFar(stream.received))})`).toBe(true);
    // Whether a followed log ends with the container the row does not say (streams.logs.follow-ends has dockerd's).
    context.expect(stdoutSoFar(stream.received), 'stdout of the followed log').toBe('one\ntwo\n');
  });
});

check('streams.logs.follow-ends', {
  title: 'logs with follow=1 end when the container exits (cat ends as its stdin is half-closed)',
  // spec/1 §4.1 gives "follow (default false)" and nothing of when a followed log ends
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['stream'],
}, async (context) => {
  await followingLog(context, 'one\n', { stdout: 1, follow: 1 }, async (stream, stdin) => {
    await stream.waitFor((received) => stdoutSoFar(received).includes('one\n'));
    stdin.closeWrite(); // with StdinOnce, dockerd ends cat's stdin at the end of the attached client's stdin
    const ended = await stream.endsWithin();
    context.expect(ended, 'the followed log ended once the container exited').toBe(true);
    context.expect(decodeFrames(stream.received).stdout.toString('utf8'), 'stdout of the followed log').toBe('one\n');
  }, true);
});

check('streams.logs.follow-tail', {
  title: 'logs with follow=1 and tail=1 start from the last line, then deliver new lines',
  spec: '1 §4.1, §4.4',
  quote: ['| GET /containers/{id_or_name}/logs |', 'details (boolean, [1.25], default false), follow (default false), stdout (default false), stderr (default false), since (Unix timestamp integer, [1.19+], default 0 = unfiltered), timestamps (default false), tail (`all` or a number, default all)', 'stream, see 4.4; only for containers using the json-file or journald log drivers', '101 (hint for proxy about hijacking), 200 (no upgrade header), 404, 500', 'When Tty is disabled, the stream is multiplexed into frames.', 'Header: byte 0 is the stream type (0 stdin, written on stdout; 1 stdout; 2 stderr), bytes 1 to 3 are zero, bytes 4 to 7 are the payload size as an unsigned 32-bit big-endian integer.'],
  since: '1.18',
  tags: ['stream'],
  covers: ['1:GET /containers/{id_or_name}/logs:query:follow', '1:GET /containers/{id_or_name}/logs:query:tail'],
}, async (context) => {
  await followingLog(context, 'one\ntwo\n', { stdout: 1, follow: 1, tail: 1 }, async (stream, stdin) => {
    await stream.waitFor((received) => stdoutSoFar(received).includes('two\n'));
    await stdin.write('three\n');
    await stream.waitFor((received) => stdoutSoFar(received).includes('three\n'));
    context.expect(stdoutSoFar(stream.received), 'stdout of the followed log').toBe('two\nthree\n');
  });
});

check('streams.logs.since', {
  title: 'logs with since=T (Unix seconds) leave out lines written before T; since=0 leaves out none',
  spec: '1 §4.1, §4.4, §2.2',
  quote: ['| GET /containers/{id_or_name}/logs |', 'details (boolean, [1.25], default false), follow (default false), stdout (default false), stderr (default false), since (Unix timestamp integer, [1.19+], default 0 = unfiltered), timestamps (default false), tail (`all` or a number, default all)', 'stream, see 4.4; only for containers using the json-file or journald log drivers', '101 (hint for proxy about hijacking), 200 (no upgrade header), 404, 500', 'When Tty is disabled, the stream is multiplexed into frames.', 'Header: byte 0 is the stream type (0 stdin, written on stdout; 1 stdout; 2 stderr), bytes 1 to 3 are zero, bytes 4 to 7 are the payload size as an unsigned 32-bit big-endian integer.', 'StartedAt (timestamp)', 'Created (timestamp, RFC 3339 with nanoseconds)'],
  since: '1.19',
  tags: ['stream'],
  covers: ['1:GET /containers/{id_or_name}/logs:query:since', '1:version-rule:1.19:logs-since'],
}, async (context) => {
  // The daemon's own clock places the lines: State.StartedAt (spec/1 §2.2, a timestamp) is when it
  // started the process, the early line comes at once and the late one three seconds later, so the
  // second T = StartedAt + 2 (rounded down) lies between them. No host clock is compared, and the log's
  // timestamps (whose format the row does not give) are not read.
  const id = await startedContainer(context, { Cmd: ['sh', '-c', 'echo early; sleep 3; echo late'], Tty: false, HostConfig: JSON_FILE_LOG });
  const { StartedAt } = await containerState(context, id);
  const cut = Math.floor(Date.parse(StartedAt) / 1000) + 2;
  const read = async (query: Query) => {
    const res = await context.engine.get(`/containers/${id}/logs`, { query: { stdout: 1, ...query } });
    context.expect(res.status, `GET /containers/{id}/logs${encodeQuery(query)} status`).toBe(200);
    return decodeFrames(res.body).stdout.toString('utf8');
  };
  await until(() => read({}), (stdout) => stdout.includes('late\n'), { what: 'both lines in the log', timeoutMs: 15_000 });
  const seen = { sinceLate: await read({ since: cut }), sinceZero: await read({ since: 0 }) };
  context.expect(seen, `stdout per since (since=${cut}, the container started at ${StartedAt})`).toEqual({ sinceLate: 'late\n', sinceZero: 'early\nlate\n' });
});
