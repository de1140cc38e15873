/**
 * GET /containers/{id}/logs of a container without a Tty that has exited (json-file log driver): the
 * body is multiplexed frames (spec/1 §4.4), decoded strictly so that bad framing fails the check.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { NonConformingResponse } from '../../harness/client/api-response.ts';
import { until } from '../../harness/wait-until.ts';

const STDOUT = 1;
const STDERR = 2;
const HEADER_LENGTH = 8;

interface Frame {
  stream: number;
  payload: Buffer;
}

/**
 * Splits a whole multiplexed body into frames: byte 0 the stream, bytes 1–3 zero, bytes 4–7 the
 * payload length, big-endian. (A stand-in until the harness has its incremental frame decoder.)
 */
function decodeFrames(body: Buffer, what: string): Frame[] {
  const frames: Frame[] = [];
  let offset = 0;
  while (offset < body.length) {
    const header = body.subarray(offset, offset + HEADER_LENGTH);
    const stream = header[0] ?? -1;
    if (header.length < HEADER_LENGTH || stream > STDERR || header[1] !== 0 || header[2] !== 0 || header[3] !== 0) {
      throw new NonConformingResponse(`${what}: no frame header at byte ${offset}: ${JSON.stringify(header.toString('latin1'))}`);
    }
    const length = header.readUInt32BE(4);
    const payload = body.subarray(offset + HEADER_LENGTH, offset + HEADER_LENGTH + length);
    if (payload.length < length) throw new NonConformingResponse(`${what}: frame at byte ${offset} announces ${length} bytes, ${payload.length} follow`);
    frames.push({ stream, payload });
    offset += HEADER_LENGTH + length;
  }
  return frames;
}

/** Each stream's text, joined from its frames. */
function streamTexts(frames: Frame[]): { stdout: string; stderr: string; other: number[] } {
  const text = (stream: number) => Buffer.concat(frames.filter((frame) => frame.stream === stream).map((frame) => frame.payload)).toString('utf8');
  return { stdout: text(STDOUT), stderr: text(STDERR), other: frames.map((frame) => frame.stream).filter((stream) => stream !== STDOUT && stream !== STDERR) };
}

/** Runs the command in a container without a Tty until it exits; returns the container id. */
async function ranToExit(context: CheckContext, cmd: string[]): Promise<string> {
  const id = await context.make.container({ Image: context.session.fixtureImage, Cmd: cmd, Tty: false });
  const start = await context.engine.post(`/containers/${id}/start`);
  context.expect(start.status, 'POST /containers/{id}/start status').toBe(204);
  await until(
    async () => (await context.engine.get(`/containers/${id}/json`)).json<{ State: { Running: boolean } }>().State,
    (state) => !state.Running,
    { what: 'the container to exit' },
  );
  return id;
}

async function logs({ engine, expect }: CheckContext, id: string, query: Record<string, string>): Promise<Frame[]> {
  const res = await engine.get(`/containers/${id}/logs`, { query });
  expect(res.status, `GET /containers/{id}/logs?${new URLSearchParams(query)} status`).toBe(200);
  return decodeFrames(res.body, `the logs body for ${new URLSearchParams(query)}`);
}

const OUT_AND_ERR = ['sh', '-c', 'echo out; echo err >&2'];

check('containers.logs.stream-selection', {
  title: 'logs with stdout=1 and/or stderr=1 return exactly the chosen streams, stdout in frames of type 1 and stderr of type 2',
  spec: '1 §4.4',
  since: '1.18',
  tags: ['stream'],
}, async (context) => {
  const id = await ranToExit(context, OUT_AND_ERR);
  const seen = {
    stdout: streamTexts(await logs(context, id, { stdout: '1' })),
    stderr: streamTexts(await logs(context, id, { stderr: '1' })),
    both: streamTexts(await logs(context, id, { stdout: '1', stderr: '1' })),
  };
  context.expect(seen, `streams per selection: ${JSON.stringify(seen)}`).toEqual({
    stdout: { stdout: 'out\n', stderr: '', other: [] },
    stderr: { stdout: '', stderr: 'err\n', other: [] },
    both: { stdout: 'out\n', stderr: 'err\n', other: [] },
  });
});

check('containers.logs.tail', {
  title: 'logs with tail=N return the last N lines, tail=all every line',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['stream'],
}, async (context) => {
  // One stream only: how lines of stdout and stderr interleave in the log is not specified.
  const id = await ranToExit(context, ['seq', '5']);
  const seen = {
    2: streamTexts(await logs(context, id, { stdout: '1', tail: '2' })).stdout,
    all: streamTexts(await logs(context, id, { stdout: '1', tail: 'all' })).stdout,
  };
  context.expect(seen, `stdout per tail: ${JSON.stringify(seen)}`).toEqual({ 2: '4\n5\n', all: '1\n2\n3\n4\n5\n' });
});

check('containers.logs.timestamps', {
  title: 'logs with timestamps=1 start each line with an RFC 3339 timestamp and a space',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['stream'],
}, async (context) => {
  const id = await ranToExit(context, OUT_AND_ERR);
  const { stdout, stderr } = streamTexts(await logs(context, id, { stdout: '1', stderr: '1', timestamps: '1' }));
  const stamped = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}) /;
  const lines = { stdout: stdout.split('\n').filter(Boolean), stderr: stderr.split('\n').filter(Boolean) };
  const read = (line: string) => ({ stamped: stamped.test(line), text: line.replace(stamped, '') });
  context.expect({ stdout: lines.stdout.map(read), stderr: lines.stderr.map(read) }, `lines ${JSON.stringify(lines)}`).toEqual({
    stdout: [{ stamped: true, text: 'out' }],
    stderr: [{ stamped: true, text: 'err' }],
  });
});
