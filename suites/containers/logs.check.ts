/**
 * GET /containers/{id}/logs of a container without a Tty that has exited (json-file log driver): the
 * body is multiplexed frames (spec/1 §4.4), decoded strictly so that bad framing fails the check. The
 * spec-level checks name the json-file driver at create: logs are only for json-file or journald, and
 * the spec gives no default driver.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { decodeFrames } from '../../harness/streams/frame-decoder.ts';
import type { DecodedFrame } from '../../protocol/stream-types.ts';
import { exitedContainer, exitedWithoutTty } from '../container-steps.ts';
import { OUT_AND_ERR, STREAM_TIMEOUT_MS, streamText } from '../stream-reading.ts';

/** Each stream's text; frames of any type but stdout and stderr (stdin, 0) are out of place in logs. */
function streamTexts(frames: DecodedFrame[]): { stdout: string; stderr: string; other: string[] } {
  return { stdout: streamText(frames, 'stdout'), stderr: streamText(frames, 'stderr'), other: frames.map((frame) => frame.stream).filter((stream) => stream !== 'stdout' && stream !== 'stderr') };
}

/** Runs `cmd` without a Tty, logged by the json-file driver, to its end; returns the container id. */
function exitedJsonFile(context: CheckContext, cmd: string[]): Promise<string> {
  return exitedContainer(context, { Cmd: cmd, Tty: false, HostConfig: { LogConfig: { Type: 'json-file', Config: {} } } });
}

async function logs({ engine, expect }: CheckContext, id: string, query: Record<string, string>): Promise<DecodedFrame[]> {
  const res = await engine.get(`/containers/${id}/logs`, { query });
  expect(res.status, `GET /containers/{id}/logs?${new URLSearchParams(query)} status`).toBe(200);
  // Strict decoding: bad framing throws FrameError, which fails the check (the target's fault).
  return decodeFrames(res.body).frames;
}

check('containers.logs.stream-selection', {
  title: 'logs with stdout=1 and/or stderr=1 return exactly the chosen streams, stdout in frames of type 1 and stderr of type 2',
  spec: '1 §4.4, §4.1, §2.3',
  quote: ['| GET /containers/{id_or_name}/logs | details (boolean, [1.25], default false), follow (default false), stdout (default false), stderr (default false), since (Unix timestamp integer, [1.19+], default 0 = unfiltered), timestamps (default false), tail (`all` or a number, default all) | none |', 'stream, see 4.4; only for containers using the json-file or journald log drivers | 101 (hint for proxy about hijacking), 200 (no upgrade header), 404, 500 |', 'When Tty is disabled, the stream is multiplexed into frames.', 'Header: byte 0 is the stream type (0 stdin, written on stdout; 1 stdout; 2 stderr), bytes 1 to 3 are zero, bytes 4 to 7 are the payload size as an unsigned 32-bit big-endian integer. The payload is the raw stream bytes.', 'Without the header the status is 200.', '| LogConfig | object | {Type, Config}; Type values: json-file, syslog, journald, gelf, none, plus awslogs (from 1.21), fluentd, splunk, etwlogs (1.25) |'],
  since: '1.18',
  tags: ['stream'],
  covers: [
    '1:GET /containers/{id_or_name}/logs:query:stdout',
    '1:GET /containers/{id_or_name}/logs:query:stderr',
    '1:GET /containers/{id_or_name}/logs:status:200',
  ],
}, async (context) => {
  const id = await exitedJsonFile(context, OUT_AND_ERR);
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
  spec: '1 §4.1, §4.4, §2.3',
  quote: ['| GET /containers/{id_or_name}/logs | details (boolean, [1.25], default false), follow (default false), stdout (default false), stderr (default false), since (Unix timestamp integer, [1.19+], default 0 = unfiltered), timestamps (default false), tail (`all` or a number, default all) | none |', 'stream, see 4.4; only for containers using the json-file or journald log drivers | 101 (hint for proxy about hijacking), 200 (no upgrade header), 404, 500 |', 'When Tty is disabled, the stream is multiplexed into frames.', 'Header: byte 0 is the stream type (0 stdin, written on stdout; 1 stdout; 2 stderr), bytes 1 to 3 are zero, bytes 4 to 7 are the payload size as an unsigned 32-bit big-endian integer. The payload is the raw stream bytes.', '| LogConfig | object | {Type, Config}; Type values: json-file, syslog, journald, gelf, none, plus awslogs (from 1.21), fluentd, splunk, etwlogs (1.25) |'],
  since: '1.18',
  tags: ['stream'],
  covers: ['1:GET /containers/{id_or_name}/logs:query:tail'],
}, async (context) => {
  // One stream only: how lines of stdout and stderr interleave in the log is not specified.
  const id = await exitedJsonFile(context, ['seq', '5']);
  const seen = {
    2: streamTexts(await logs(context, id, { stdout: '1', tail: '2' })).stdout,
    all: streamTexts(await logs(context, id, { stdout: '1', tail: 'all' })).stdout,
  };
  context.expect(seen, `stdout per tail: ${JSON.stringify(seen)}`).toEqual({ 2: '4\n5\n', all: '1\n2\n3\n4\n5\n' });
});

/** An RFC 3339 timestamp, the form of a timestamp in spec/1 §2.2 (Created). */
const RFC3339 = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/;
/** A timestamp as a word of a line, in either form the spec gives one: RFC 3339 (§2.2 Created) or Unix seconds (logs since, events time). */
const TIMESTAMP_WORD = new RegExp(`^(${RFC3339.source}|\\d{9,}(\\.\\d+)?)$`);

/** The stdout and stderr lines of a log read with `query` from a container that wrote `out` and `err`. */
async function linesOf(context: CheckContext, id: string, query: Record<string, string>): Promise<{ stdout: string[]; stderr: string[] }> {
  const { stdout, stderr } = streamTexts(await logs(context, id, { stdout: '1', stderr: '1', ...query }));
  return { stdout: stdout.split('\n').filter(Boolean), stderr: stderr.split('\n').filter(Boolean) };
}

check('containers.logs.timestamps', {
  title: 'logs with timestamps=1 give each line a timestamp (RFC 3339 or Unix seconds) beside its text',
  spec: '1 §4.1, §2.2, §4.4, §2.3',
  quote: ['| GET /containers/{id_or_name}/logs | details (boolean, [1.25], default false), follow (default false), stdout (default false), stderr (default false), since (Unix timestamp integer, [1.19+], default 0 = unfiltered), timestamps (default false), tail (`all` or a number, default all) | none |', 'stream, see 4.4; only for containers using the json-file or journald log drivers | 101 (hint for proxy about hijacking), 200 (no upgrade header), 404, 500 |', 'Created (timestamp, RFC 3339 with nanoseconds)', 'When Tty is disabled, the stream is multiplexed into frames.', 'Header: byte 0 is the stream type (0 stdin, written on stdout; 1 stdout; 2 stderr), bytes 1 to 3 are zero, bytes 4 to 7 are the payload size as an unsigned 32-bit big-endian integer. The payload is the raw stream bytes.', '| LogConfig | object | {Type, Config}; Type values: json-file, syslog, journald, gelf, none, plus awslogs (from 1.21), fluentd, splunk, etwlogs (1.25) |'],
  since: '1.18',
  tags: ['stream'],
  covers: ['1:GET /containers/{id_or_name}/logs:query:timestamps'],
}, async (context) => {
  const id = await exitedJsonFile(context, OUT_AND_ERR);
  const lines = await linesOf(context, id, { timestamps: '1' });
  // Where the timestamp goes on the line, and in which of the spec's forms, is not said: only that the
  // line has one, as a word of its own, and keeps its text.
  const read = (text: string) => (line: string) => ({ stamped: line.split(' ').some((word) => TIMESTAMP_WORD.test(word)), text: line.split(' ').includes(text) });
  context.expect({ stdout: lines.stdout.map(read('out')), stderr: lines.stderr.map(read('err')) }, `lines ${JSON.stringify(lines)}`).toEqual({
    stdout: [{ stamped: true, text: true }],
    stderr: [{ stamped: true, text: true }],
  });
});

check('containers.logs.timestamps-prefix', {
  title: 'logs with timestamps=1 start each line with an RFC 3339 timestamp and a space',
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['stream'],
}, async (context) => {
  const id = await exitedWithoutTty(context, OUT_AND_ERR);
  const lines = await linesOf(context, id, { timestamps: '1' });
  const stamped = new RegExp(`^${RFC3339.source} `);
  const read = (line: string) => ({ stamped: stamped.test(line), text: line.replace(stamped, '') });
  context.expect({ stdout: lines.stdout.map(read), stderr: lines.stderr.map(read) }, `lines ${JSON.stringify(lines)}`).toEqual({
    stdout: [{ stamped: true, text: 'out' }],
    stderr: [{ stamped: true, text: 'err' }],
  });
});

/** A container without a Tty that wrote `out`, whose log driver is asked (`labels`) to record its label shipshape.detail. */
function containerWithLogDetail(context: CheckContext): Promise<string> {
  return exitedContainer(context, {
    Cmd: ['echo', 'out'],
    Tty: false,
    Labels: { 'shipshape.detail': 'on-the-line' },
    HostConfig: { LogConfig: { Type: 'json-file', Config: { labels: 'shipshape.detail' } } },
  });
}

check('containers.logs.details', {
  title: 'logs with details=1 answer 200 with each line still carrying its text, from 1.23 (what details add, and where, is not shown)',
  spec: '1 §4.1, §9.4, §2.3, §4.4',
  quote: ['| GET /containers/{id_or_name}/logs | details (boolean, [1.25], default false), follow (default false), stdout (default false), stderr (default false), since (Unix timestamp integer, [1.19+], default 0 = unfiltered), timestamps (default false), tail (`all` or a number, default all) | none |', 'stream, see 4.4; only for containers using the json-file or journald log drivers | 101 (hint for proxy about hijacking), 200 (no upgrade header), 404, 500 |', '1.23 container State and Mounts in the list, PidsLimit, pids_stats, logs details, nocopy for named volumes', '| LogConfig | object | {Type, Config}; Type values: json-file, syslog, journald, gelf, none, plus awslogs (from 1.21), fluentd, splunk, etwlogs (1.25) |', 'When Tty is disabled, the stream is multiplexed into frames.', 'Header: byte 0 is the stream type (0 stdin, written on stdout; 1 stdout; 2 stderr), bytes 1 to 3 are zero, bytes 4 to 7 are the payload size as an unsigned 32-bit big-endian integer. The payload is the raw stream bytes.'],
  since: '1.23',
  tags: ['stream', 'version'],
  covers: ['1:GET /containers/{id_or_name}/logs:query:details', '1:version-rule:1.23:logs-details', '1:version-rule:1.25:logs-details'],
}, async (context) => {
  // §9.4 gives details at 1.23, the logs row [1.25]: a check from 1.23 holds both, as a daemon reading [1.25] ignores it.
  // No log option asks for details: LogConfig.Config's keys are not the spec's.
  const id = await exitedJsonFile(context, ['echo', 'out']);
  const seen = {
    details: streamTexts(await logs(context, id, { stdout: '1', details: '1' })).stdout,
    plain: streamTexts(await logs(context, id, { stdout: '1' })).stdout,
  };
  const what = `stdout with details=1 and without: ${JSON.stringify(seen)}`;
  // Where on the line the details go is not shown either: the line keeps its text as a word of its own.
  context.expect({ lines: seen.details.split('\n').length - 1, hasText: seen.details.split('\n').some((line) => line.split(' ').includes('out')), plain: seen.plain }, what).toEqual({ lines: 1, hasText: true, plain: 'out\n' });
});

check('containers.logs.details-attributes', {
  title: 'logs with details=1 start each line with the log attributes (the labels LogConfig names) as key=value and a space',
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.23',
  tags: ['stream', 'version'],
}, async (context) => {
  const id = await containerWithLogDetail(context);
  const details = streamTexts(await logs(context, id, { stdout: '1', details: '1' })).stdout;
  context.expect(details, 'stdout with details=1').toBe('shipshape.detail=on-the-line out\n');
});

check('containers.logs.upgrade', {
  title: 'logs with Upgrade: tcp answer 101 with Upgrade: tcp and the raw-stream Content-Type, then the log in frames',
  spec: '1 §4.4, §4.1, §2.3',
  quote: ['Hijacking: a client sends headers `Upgrade: tcp` and `Connection: Upgrade`. When the daemon sees the Upgrade header it answers 101 UPGRADED (instead of 200 OK), repeats the same headers, and sets Content-Type `application/vnd.engine.raw-stream`.', 'When Tty is disabled, the stream is multiplexed into frames.', 'Header: byte 0 is the stream type (0 stdin, written on stdout; 1 stdout; 2 stderr), bytes 1 to 3 are zero, bytes 4 to 7 are the payload size as an unsigned 32-bit big-endian integer. The payload is the raw stream bytes.', '| GET /containers/{id_or_name}/logs | details (boolean, [1.25], default false), follow (default false), stdout (default false), stderr (default false), since (Unix timestamp integer, [1.19+], default 0 = unfiltered), timestamps (default false), tail (`all` or a number, default all) | none |', 'stream, see 4.4; only for containers using the json-file or journald log drivers | 101 (hint for proxy about hijacking), 200 (no upgrade header), 404, 500 |', '| LogConfig | object | {Type, Config}; Type values: json-file, syslog, journald, gelf, none, plus awslogs (from 1.21), fluentd, splunk, etwlogs (1.25) |'],
  since: '1.18',
  tags: ['stream'],
  covers: ['1:GET /containers/{id_or_name}/logs:header:Upgrade', '1:GET /containers/{id_or_name}/logs:status:101'],
}, async (context) => {
  const id = await exitedJsonFile(context, ['echo', 'hello']);
  // hijack() resolves only on a 101 answer: any other status rejects it, and the exchange log shows it.
  const stream = await context.engine.hijack(`/containers/${id}/logs`, { method: 'GET', query: { stdout: 1 } });
  try {
    const { upgrade, 'content-type': contentType } = stream.headers;
    context.expect({ upgrade: String(upgrade).toLowerCase(), contentType }, 'headers of the 101 answer').toEqual({ upgrade: 'tcp', contentType: context.dialect.rawStreamContentType });
    const ended = await stream.endsWithin(STREAM_TIMEOUT_MS);
    context.expect(ended, `the log ended (received ${JSON.stringify(stream.received.toString('latin1'))})`).toBe(true);
  } finally {
    stream.close();
  }
  context.expect(streamTexts(decodeFrames(stream.received).frames).stdout, 'stdout of the hijacked log').toBe('hello\n');
});
