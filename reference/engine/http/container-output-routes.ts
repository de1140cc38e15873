/**
 * Container endpoints that read what a container produced (spec/1 §4.1): its processes (top), its
 * filesystem changes and its log. Logs are multiplexed frames (spec/1 §4.4) without a Tty and the raw terminal bytes with one.
 */
import { atLeast } from '../../../harness/versions.ts';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Container } from '../model/container.ts';
import { logAttributes, type LogEntry } from '../model/container-log.ts';
import { InvalidParameterError } from '../model/errors.ts';
import { formatFixedNanoTimestamp } from '../model/timestamps.ts';
import { answerUpgraded, writeFrames } from './raw-stream.ts';
import { sendJson } from './replies.ts';
import { clientGone, containerOf } from './route-helpers.ts';
import type { Route, RouteContext } from './route-table.ts';
import { parseUnixTime } from './unix-time-query.ts';

/** `tail`: a number of lines; `all`, or anything that is not a number, means every line (dockerd's Atoi fallback). */
function parseTail(text: string | null): number | undefined {
  return text !== null && /^[+-]?\d+$/.test(text) ? Number(text) : undefined;
}

/** Go's url.QueryEscape: only letters, digits and `-_.~` stay as they are; a space is `+`. */
function queryEscape(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** What `details=1` puts in front of each line: `key=value,…` and a space (a lone space when there are none). */
function detailsPrefix(container: Container): string {
  const attributes = logAttributes(container.hostConfig.LogConfig.Config, container.config.Labels, container.config.Env);
  const pairs = Object.keys(attributes)
    .sort()
    .map((key) => `${queryEscape(key)}=${queryEscape(attributes[key] ?? '')}`);
  return `${pairs.join(',')} `;
}

async function streamLogs(context: RouteContext): Promise<void> {
  const { query, version, model, personality } = context;
  const stdout = personality.booleanQuery(query.get('stdout'), false);
  const stderr = personality.booleanQuery(query.get('stderr'), false);
  if (!stdout && !stderr) throw new InvalidParameterError('Bad parameters: you must choose at least one stream');
  const container = containerOf(context);
  const signal = clientGone(context);
  const entries = model.operations.logs(container, {
    stdout,
    stderr,
    since: atLeast(version, '1.19') ? parseUnixTime(query.get('since')) : undefined,
    tail: parseTail(query.get('tail')),
    follow: personality.booleanQuery(query.get('follow'), false),
    signal,
  });
  const timestamps = personality.booleanQuery(query.get('timestamps'), false);
  // §9.4 gives details at 1.23, the logs row of §4.1 marks it [1.25]: it is read from 1.23, which keeps both.
  const details = atLeast(version, '1.23') && personality.booleanQuery(query.get('details'), false) ? detailsPrefix(container) : undefined;
  const line = (entry: LogEntry) => {
    const prefix = `${timestamps ? `${formatFixedNanoTimestamp(entry.time)} ` : ''}${details ?? ''}`;
    return prefix ? Buffer.concat([Buffer.from(prefix), entry.bytes]) : entry.bytes;
  };
  const output = await openLogStream(context);
  try {
    for await (const entry of entries) {
      const ready = container.config.Tty ? output.write(line(entry)) : writeFrames(output, entry.stream, line(entry), personality);
      if (!ready) await once(output, 'drain', { signal });
    }
  } catch (error) {
    // The client went away while we waited for it to read: nothing left to answer.
    if (!signal.aborted) throw error;
  }
  output.end();
}

/** With an Upgrade header the log goes on the hijacked connection after a 101 (spec/1 §4.1 logs row, §4.4); without, in a 200 body. */
async function openLogStream(context: RouteContext): Promise<Writable> {
  if (context.upgrade) return answerUpgraded(context, context.upgrade);
  // dockerd sends its headers before the first line, and no Content-Type.
  context.response.writeHead(200);
  context.response.flushHeaders();
  return context.response;
}

export const containerOutputRoutes: Route[] = [
  {
    method: 'GET',
    path: '/containers/{id*}/top',
    handle: (context) => {
      const { Titles, Processes } = context.model.operations.top(containerOf(context), context.query.get('ps_args') ?? '');
      sendJson(context.response, 200, { Titles, Processes: context.personality.unordered(Processes) });
    },
  },
  {
    method: 'GET',
    path: '/containers/{id*}/changes',
    handle: (context) => sendJson(context.response, 200, context.personality.unordered(context.model.operations.changes(containerOf(context)))),
  },
  { method: 'GET', path: '/containers/{id*}/logs', handle: streamLogs },
];
