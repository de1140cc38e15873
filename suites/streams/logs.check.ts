/**
 * GET /containers/{id}/logs as a stream (spec/1 §4.1 logs row, §4.4): follow keeps the response open
 * and delivers output as the process writes it, until the container exits; tail and since choose where
 * the log starts. The process is `cat` fed through attach, so each line is written exactly when the
 * check says, and the check never sleeps for a state. (tail and timestamps of a finished log are
 * checks of the containers suite.)
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { encodeQuery, type Query } from '../../harness/client/engine-client.ts';
import type { HijackedStream } from '../../harness/client/hijacked-stream.ts';
import { openStream, type StreamedResponse } from '../../harness/client/streamed-response.ts';
import { decodeFrames } from '../../harness/streams/frame-decoder.ts';
import { until } from '../../harness/wait-until.ts';
import { startContainer, startedContainer } from '../container-steps.ts';
import { stdoutSoFar } from '../stream-reading.ts';

interface CatSession {
  id: string;
  /** stdin of `cat`: a line written here shows up in the log */
  stdin: HijackedStream;
}

/** A running `cat` without a Tty, its stdin attached (StdinOnce: closing stdin ends it). */
async function catWithStdin(context: CheckContext): Promise<CatSession> {
  const id = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['cat'], OpenStdin: true, StdinOnce: true, Tty: false });
  const stdin = await context.engine.hijack(`/containers/${id}/attach`, { query: { stream: 1, stdin: 1, stdout: 1 } });
  try {
    await startContainer(context, id);
  } catch (error) {
    stdin.close();
    throw error;
  }
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

/**
 * Runs `cat`, writes `written` to it and waits until the log holds it, then follows the log with
 * `query` (which must answer 200) and hands the followed log and cat's stdin to `use`.
 */
async function followingLog(context: CheckContext, written: string, query: Query, use: (stream: StreamedResponse, stdin: HijackedStream) => Promise<void>): Promise<void> {
  const { id, stdin } = await catWithStdin(context);
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
  title: 'logs with follow=1 deliver each new line as it is written and end when the container exits',
  spec: '1 §4.1',
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
    stdin.closeWrite(); // cat exits at the end of its stdin, and the container with it
    const ended = await stream.endsWithin();
    context.expect(ended, 'the followed log ended once the container exited').toBe(true);
    context.expect(decodeFrames(stream.received).stdout.toString('utf8'), 'stdout of the followed log').toBe('one\ntwo\n');
  });
});

check('streams.logs.follow-tail', {
  title: 'logs with follow=1 and tail=1 start from the last line, then deliver new lines',
  spec: '1 §4.1',
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

/** Whole seconds of an RFC 3339 timestamp, rounded down (the fraction is cut before parsing, offset kept). */
function unixSeconds(timestamp: string): number {
  return Math.floor(Date.parse(timestamp.replace(/\.\d+/, '')) / 1000);
}

check('streams.logs.since', {
  title: 'logs with since=T (Unix seconds) leave out lines written before T; since=0 leaves out none',
  spec: '1 §4.1',
  since: '1.19',
  tags: ['stream'],
  covers: ['1:GET /containers/{id_or_name}/logs:query:since', '1:version-rule:1.19:logs-since'],
}, async (context) => {
  // More than a second apart, so that a whole second lies between the lines' timestamps.
  const id = await startedContainer(context, { Cmd: ['sh', '-c', 'echo early; sleep 1.2; echo late'], Tty: false });
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
