/**
 * The JSON message streams dockerd answers long operations with (its jsonmessage.JSONMessage, one
 * object a line): progress `{status, progressDetail, progress, id}`, text `{stream}`, and
 * `{errorDetail, error}` when the operation fails after the answer has begun.
 */
import type { ServerResponse } from 'node:http';
import { goJson } from '../model/images/image-document.ts';

/** dockerd's decimal size units (go-units HumanSize) */
const UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];
/** the progress bar's width in `=`, as drawn for a client that is not a terminal */
const BAR_WIDTH = 50;

export class JsonMessageStream {
  constructor(private readonly response: ServerResponse) {}

  /** 200 with the stream's content type: from here on, failures go into the stream. */
  begin(): void {
    this.response.writeHead(200, { 'Content-Type': 'application/json' });
    this.response.flushHeaders();
  }

  /** `id` '' and `total` 0 are left out, as Go's omitempty does (an import's progress names no layer). */
  progress(status: string, id: string, current: number, total: number): void {
    this.write({ status, progressDetail: { current, ...(total !== 0 && { total }) }, progress: progressText(current, total), ...(id !== '' && { id }) });
  }

  /** `{}`: what dockerd writes after the last progress of a download it reads to the end. */
  empty(): void {
    this.write({});
  }

  /** A message (dockerd's progress.Message): `{status}`, with the layer or tag it is about when `id` is given. */
  status(text: string, id = ''): void {
    this.write({ status: text, ...(id !== '' && { id }) });
  }

  /** A step of a layer without counts (progress.Update): `{status, progressDetail: {}, id}`. */
  update(status: string, id: string): void {
    this.write({ status, progressDetail: {}, id });
  }

  /** A result for the client to read (progress.Aux), e.g. a push's tag, digest and size. */
  aux(value: Record<string, unknown>): void {
    this.write({ progressDetail: {}, aux: value });
  }

  stream(text: string): void {
    this.write({ stream: text });
  }

  /** `code` (a build step's exit code) is left out when 0. */
  error(message: string, code = 0): void {
    this.write({ errorDetail: { ...(code !== 0 && { code }), message }, error: message });
  }

  end(): void {
    this.response.end();
  }

  private write(message: Record<string, unknown>): void {
    // dockerd's streamformatter ends every message with CRLF
    this.response.write(`${goJson(message)}\r\n`);
  }
}

/** JSONProgress.String: the bar, then current/total in decimal units. */
export function progressText(current: number, total: number): string {
  if (current <= 0 && total <= 0) return '';
  if (total <= 0) return humanSize(current).padStart(8);
  const filled = Math.min(BAR_WIDTH, Math.trunc(Math.trunc((current / total) * 100) / 2));
  const bar = `[${'='.repeat(filled)}>${' '.repeat(BAR_WIDTH - filled)}] `;
  const numbers = current > total ? humanSize(current).padStart(8) : `${humanSize(current).padStart(8)}/${humanSize(total)}`;
  return bar + numbers;
}

/** go-units HumanSize: four significant digits, powers of 1000. */
export function humanSize(bytes: number): string {
  let size = bytes;
  let unit = 0;
  while (size >= 1000 && unit < UNITS.length - 1) {
    size /= 1000;
    unit += 1;
  }
  return `${Number(size.toPrecision(4))}${UNITS[unit]}`;
}
