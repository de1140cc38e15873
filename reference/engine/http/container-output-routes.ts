/**
 * Container endpoints that read what a container produced (spec/1 §4.1): its processes (top), its
 * filesystem changes and its log. Logs are multiplexed frames (spec/1 §4.4) without a Tty and the raw terminal bytes with one.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Container } from '../model/containers/container.ts';
import { logAttributes, type LogEntry } from '../model/containers/container-log.ts';
import { logLine, parseLogQuery } from './log-query.ts';
import { answerUpgraded, writeFrames } from './raw-stream.ts';
import { sendJson } from './replies.ts';
import { clientGone, containerOf } from './route-helpers.ts';
import type { Route, RouteContext } from './route-table.ts';

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
  const { model, personality } = context;
  const asked = parseLogQuery(context);
  const container = containerOf(context);
  const signal = clientGone(context);
  const entries = model.operations.logs(container, { ...asked, signal });
  const details = asked.details ? detailsPrefix(container) : undefined;
  const line = (entry: LogEntry) => logLine(entry, asked.timestamps, details);
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
export async function openLogStream(context: RouteContext): Promise<Writable> {
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
