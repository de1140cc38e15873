/**
 * GET /containers/{id}/logs as a model-based property (spec/1 §4.1, §4.4): one container without a Tty,
 * logged by the json-file driver, writes a random number of random lines to stdout and to stderr in a
 * random order and ends (the world comes from the run's seed). Random queries of stdout/stderr, tail,
 * since and timestamps, with the boolean forms of §4, are then compared with an oracle over the lines
 * it wrote.
 *
 * What the spec leaves open stays out of the oracle: how the lines of stdout and stderr interleave in
 * the log, and whether `tail` counts the lines of the whole log or of the selected streams only (dockerd
 * counts the whole log, then selects). For tail=N below the number of lines written, each stream's
 * answer must be a suffix of what it wrote, and the number of lines is bounded by both readings: with
 * both streams selected it is N, with one stream between N minus the other stream's lines and N. Since
 * is taken only well before the process started (everything) or well after it ended (nothing), so
 * neither whether its bound is inclusive nor the log's time resolution matters; with neither stream
 * selected the spec gives no answer, so every query selects at least one.
 */
import fc from 'fast-check';
import { check, type CheckContext } from '../../harness/check.ts';
import { assertProperty } from '../../harness/property-check.ts';
import { decodeFrames } from '../../harness/streams/frame-decoder.ts';
import { atLeast } from '../../protocol/versions.ts';
import { exitedContainer, inspectContainer } from '../container-steps.ts';
import { streamText } from '../stream-reading.ts';

/** Queries per run: each is one request to a container that has ended. */
const QUERY_RUNS = 30;
const STREAMS = ['stdout', 'stderr'] as const;
type Stream = (typeof STREAMS)[number];

/** One line the container writes: a word starting with a letter, so that it never reads as a timestamp. */
interface Line {
  stream: Stream;
  text: string;
}

const world = fc.array(fc.record({ stream: fc.constantFrom(...STREAMS), text: fc.stringMatching(/^[a-z][a-z0-9]{0,9}$/) }), { minLength: 1, maxLength: 10 });

/** The script that writes `lines` in order, each with its own echo (stderr by `>&2`). */
function scriptOf(lines: Line[]): string {
  return lines.map(({ stream, text }) => (stream === 'stdout' ? `echo ${text}` : `echo ${text} >&2`)).join('; ');
}

/** A boolean query value of spec/1 §4: true as 1, True or true; false as 0, False, false or left out. */
const TRUE_FORMS = ['1', 'True', 'true'] as const;
const FALSE_FORMS = ['0', 'False', 'false', undefined] as const;

type Since = 'zero' | 'before' | 'after';
interface Query {
  stdout: boolean;
  stderr: boolean;
  /** how each boolean is written */
  forms: { stdout: string | undefined; stderr: string | undefined; timestamps: string | undefined };
  timestamps: boolean;
  /** undefined: left out (default all) */
  tail?: 'all' | number;
  /** [1.19+] undefined: left out */
  since?: Since;
}

function query(version: CheckContext['version'], lineCount: number): fc.Arbitrary<Query> {
  const flag = fc.boolean().chain((on) => fc.constantFrom<string | undefined>(...(on ? TRUE_FORMS : FALSE_FORMS)).map((form) => ({ on, form })));
  const selection = fc.tuple(flag, flag).filter(([stdout, stderr]) => stdout.on || stderr.on);
  const tail = fc.option(fc.oneof(fc.constant('all' as const), fc.constant(0), fc.integer({ min: 0, max: lineCount + 2 })), { nil: undefined });
  const since = atLeast(version, '1.19') ? fc.option(fc.constantFrom<Since>('zero', 'before', 'after'), { nil: undefined }) : fc.constant(undefined);
  return fc.record({ selection, timestamps: flag, tail, since }).map(({ selection: [stdout, stderr], timestamps, tail: tailValue, since: sinceValue }) => ({
    stdout: stdout.on,
    stderr: stderr.on,
    forms: { stdout: stdout.form, stderr: stderr.form, timestamps: timestamps.form },
    timestamps: timestamps.on,
    ...(tailValue === undefined ? {} : { tail: tailValue }),
    ...(sinceValue === undefined ? {} : { since: sinceValue }),
  }));
}

/**
 * The line the container wrote that an answer's line holds. The spec gives `timestamps` no form or
 * place ("timestamps (default false)"), so with it on a line is read as whichever written line it
 * holds as a word (else as a part): what the timestamp adds is not judged. Written lines are words
 * starting with a letter, none part of another.
 */
function readLine(line: string, timestamps: boolean, written: readonly string[]): string {
  if (!timestamps) return line;
  const words = line.split(/\s+/);
  return written.find((text) => words.includes(text)) ?? written.find((text) => line.includes(text)) ?? line;
}

/** Whether `part` is a suffix of `whole`. */
function isSuffix(part: string[], whole: string[]): boolean {
  return part.length <= whole.length && part.every((text, index) => text === whole[whole.length - part.length + index]);
}

check('containers.logs.property-queries', {
  title: 'random logs queries (stdout/stderr, tail incl. 0 and all, since, timestamps) of a container that wrote random lines to stdout and stderr match the lines it wrote',
  spec: '1 §4.1, §4.4, §2.2, §2.3, §4',
  quote: [
    '| GET /containers/{id_or_name}/logs | details (boolean, [1.25], default false), follow (default false), stdout (default false), stderr (default false), since (Unix timestamp integer, [1.19+], default 0 = unfiltered), timestamps (default false), tail (`all` or a number, default all) | none |',
    'stream, see 4.4; only for containers using the json-file or journald log drivers | 101 (hint for proxy about hijacking), 200 (no upgrade header), 404, 500 |',
    'When Tty is disabled, the stream is multiplexed into frames.',
    'Header: byte 0 is the stream type (0 stdin, written on stdout; 1 stdout; 2 stderr), bytes 1 to 3 are zero, bytes 4 to 7 are the payload size as an unsigned 32-bit big-endian integer. The payload is the raw stream bytes.',
    '| LogConfig | object | {Type, Config}; Type values: json-file, syslog, journald, gelf, none, plus awslogs (from 1.21), fluentd, splunk, etwlogs (1.25) |',
    'State object: Error (string), ExitCode (integer), FinishedAt (timestamp), OOMKilled (boolean), Dead (boolean, [1.25]), Paused (boolean), Pid (integer), Restarting (boolean), Running (boolean), StartedAt (timestamp), Status (string, [1.21+], for example running).',
    'Boolean query parameters accept 1, True, true or 0, False, false.',
  ],
  since: '1.18',
  tags: ['property', 'stream'],
  covers: [
    '1:GET /containers/{id_or_name}/logs',
    '1:GET /containers/{id_or_name}/logs:query:stdout',
    '1:GET /containers/{id_or_name}/logs:query:stderr',
    '1:GET /containers/{id_or_name}/logs:query:tail',
    '1:GET /containers/{id_or_name}/logs:query:since',
    '1:GET /containers/{id_or_name}/logs:status:200',
    '1:version-rule:1.19:logs-since',
  ],
}, async (context) => {
  const { engine, expect, version } = context;
  const [lines] = fc.sample(world, { seed: context.session.seed, numRuns: 1 });
  if (!lines) throw new Error('no world sampled');
  const script = scriptOf(lines);
  const id = await exitedContainer(context, { Cmd: ['sh', '-c', script], Tty: false, HostConfig: { LogConfig: { Type: 'json-file', Config: {} } } });
  const { State: state } = await inspectContainer<{ State: { StartedAt: string; FinishedAt: string } }>(context, id);
  // The daemon's own clock: a second before the process started, and two after it had ended.
  const sinceOf: Record<Since, number> = {
    zero: 0,
    before: Math.floor(Date.parse(state.StartedAt) / 1000) - 1,
    after: Math.floor(Date.parse(state.FinishedAt) / 1000) + 2,
  };
  const written: Record<Stream, string[]> = { stdout: lines.filter((line) => line.stream === 'stdout').map((line) => line.text), stderr: lines.filter((line) => line.stream === 'stderr').map((line) => line.text) };

  await assertProperty(context, fc.asyncProperty(query(version, lines.length), async (q) => {
    const params: Record<string, string> = {};
    for (const name of ['stdout', 'stderr', 'timestamps'] as const) if (q.forms[name] !== undefined) params[name] = q.forms[name];
    if (q.tail !== undefined) params.tail = String(q.tail);
    if (q.since !== undefined) params.since = String(sinceOf[q.since]);
    const what = `GET /v${version}/containers/{id}/logs?${new URLSearchParams(params)} of a container that ran ${JSON.stringify(script)}`;
    const res = await engine.get(`/containers/${id}/logs`, { query: params });
    expect(res.status, `${what}: status`).toBe(200);
    // Strict decoding: bad framing throws FrameError, which fails the check.
    const frames = decodeFrames(res.body).frames;
    expect(frames.filter((frame) => frame.stream !== 'stdout' && frame.stream !== 'stderr').map((frame) => frame.stream), `${what}: frames of a type other than 1 (stdout) or 2 (stderr)`).toEqual([]);

    const answer = {} as Record<Stream, string[]>;
    for (const stream of STREAMS) {
      const text = streamText(frames, stream);
      expect(text === '' || text.endsWith('\n'), `${what}: ${stream} ends with a whole line: ${JSON.stringify(text)}`).toBe(true);
      answer[stream] = text.split('\n').slice(0, -1).map((line) => readLine(line, q.timestamps, written[stream]));
    }

    // The oracle: the selected streams' lines, none when since is after the end.
    const kept: Record<Stream, string[]> = {
      stdout: q.stdout && q.since !== 'after' ? written.stdout : [],
      stderr: q.stderr && q.since !== 'after' ? written.stderr : [],
    };
    const total = kept.stdout.length + kept.stderr.length;
    const everyLine = q.since === 'after' ? 0 : lines.length;
    const tail = q.tail;
    if (tail === undefined || tail === 'all' || tail >= everyLine) {
      expect(answer, `${what}: every line of the selected streams`).toEqual(kept);
      return;
    }
    if (tail === 0) {
      expect(answer, `${what}: tail=0 gives no line`).toEqual({ stdout: [], stderr: [] });
      return;
    }
    for (const stream of STREAMS) expect(isSuffix(answer[stream], kept[stream]), `${what}: ${stream} ${JSON.stringify(answer[stream])} is the end of what it wrote, ${JSON.stringify(kept[stream])}`).toBe(true);
    const count = answer.stdout.length + answer.stderr.length;
    // Both selected: the last N lines of the log under either reading. One selected: at most N and all
    // of its lines; at least what is left of N once the other stream's lines are counted.
    const unselected = (q.stdout ? 0 : written.stdout.length) + (q.stderr ? 0 : written.stderr.length);
    const lowest = Math.max(0, tail - unselected);
    const highest = Math.min(tail, total);
    expect(count >= lowest && count <= highest, `${what}: ${count} lines ${JSON.stringify(answer)}, between ${lowest} and ${highest}`).toBe(true);
  }), QUERY_RUNS);
});
