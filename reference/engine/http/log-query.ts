/**
 * What a log request asks for (the container logs row of spec/1 §4.1, and dockerd's service logs,
 * which take the same query), and how one line of a log is written with it.
 */
import { atLeast } from '../../../protocol/versions.ts';
import type { LogEntry } from '../model/containers/container-log.ts';
import { InvalidParameterError } from '../model/common/errors.ts';
import { formatFixedNanoTimestamp } from '../model/common/timestamps.ts';
import type { RouteContext } from './route-table.ts';
import { parseUnixTime } from './unix-time-query.ts';

export interface LogQuery {
  stdout: boolean;
  stderr: boolean;
  since: Date | undefined;
  tail: number | undefined;
  follow: boolean;
  timestamps: boolean;
  /** details (read from 1.23: §9.4 gives it at 1.23, the logs row of §4.1 marks it [1.25]) */
  details: boolean;
}

/** `tail`: a number of lines; `all`, or anything that is not a number, means every line (dockerd's Atoi fallback). */
function parseTail(text: string | null): number | undefined {
  return text !== null && /^[+-]?\d+$/.test(text) ? Number(text) : undefined;
}

/** The query of a log request; one that asks for neither stream is refused with `refusal` (dockerd's words; its status differs by endpoint). */
export function parseLogQuery({ query, version, personality }: RouteContext, refusal: new (message: string) => Error = InvalidParameterError): LogQuery {
  const stdout = personality.booleanQuery(query.get('stdout'), false);
  const stderr = personality.booleanQuery(query.get('stderr'), false);
  if (!stdout && !stderr) throw new refusal('Bad parameters: you must choose at least one stream');
  return {
    stdout,
    stderr,
    since: atLeast(version, '1.19') ? parseUnixTime(query.get('since')) : undefined,
    tail: parseTail(query.get('tail')),
    follow: personality.booleanQuery(query.get('follow'), false),
    timestamps: personality.booleanQuery(query.get('timestamps'), false),
    details: atLeast(version, '1.23') && personality.booleanQuery(query.get('details'), false),
  };
}

/** A line as the log answer carries it: its timestamp with timestamps, then the details prefix when given. */
export function logLine(entry: LogEntry, timestamps: boolean, detailsPrefix: string | undefined): Buffer {
  const prefix = `${timestamps ? `${formatFixedNanoTimestamp(entry.time)} ` : ''}${detailsPrefix ?? ''}`;
  return prefix ? Buffer.concat([Buffer.from(prefix), entry.bytes]) : entry.bytes;
}
