/**
 * A GET answered with a stream (stats, events, a followed log), read as it arrives. The engine client
 * reads bodies whole, which cannot show that a stream stays open, nor what came before it ended.
 * Streams of JSON (spec/1 §4.3.3) are a sequence of objects on one response, split here by their
 * brackets: a daemon need not put one per line.
 */
import type { Readable } from 'node:stream';
import { request } from 'undici';
import type { Connection } from '../target.ts';
import { NonConformingResponse, type ExchangeRecord } from './api-response.ts';
import { ArrivingBytes } from './arriving-bytes.ts';
import { encodeQuery, type EngineClient, type Query } from './engine-client.ts';
import { recordSent } from './sent-request.ts';
import { connectionDispatcher } from './shared-dispatcher.ts';

/** The whole request, however long the stream: a check that forgets to close one does not hang the run. */
const REQUEST_DEADLINE_MS = 30_000;
const PREVIEW_LENGTH = 300;

export class StreamedResponse extends ArrivingBytes {
  private readonly parsedObjects: unknown[] = [];
  /** how much of `received` the parsed objects came from */
  private parsedBytes = 0;

  constructor(
    readonly status: number,
    readonly contentType: string | undefined,
    private readonly body: Readable,
    /** what the request looked like, for failure messages */
    readonly describe: string,
  ) {
    super(body);
  }

  /** The JSON objects received so far, in order; an incomplete last one is left for later. */
  jsonObjects<T = unknown>(): T[] {
    // Each object is parsed once: waits on an events stream ask on every chunk, and a run's events are thousands.
    const text = this.received.subarray(this.parsedBytes).toString('utf8');
    let consumed = 0;
    try {
      for (const { value, end } of scanJsonObjects(text)) {
        try {
          this.parsedObjects.push(JSON.parse(value));
        } catch {
          throw new NonConformingResponse(`${this.describe} streamed something that is not JSON: ${JSON.stringify(value.slice(0, PREVIEW_LENGTH))}`);
        }
        consumed = end;
      }
    } finally {
      // An object ends with an ASCII bracket: the offset never falls inside a character.
      this.parsedBytes += Buffer.byteLength(text.slice(0, consumed));
    }
    return [...this.parsedObjects] as T[];
  }

  /** How many whole JSON objects have arrived; never throws, so wait predicates can use it. */
  get jsonObjectCount(): number {
    return splitJsonObjects(this.received.toString('utf8')).length;
  }

  close(): void {
    this.body.destroy();
  }
}

/** A request body for a stream that answers one (a build's context). */
export interface StreamRequestBody {
  method: 'POST';
  contentType: string;
  body: Buffer;
}

/**
 * GET `path` (or POST it with `send`) under the client's version prefix; resolves once the answer's
 * headers are in. The exchange log shows the request with its status and the first bytes of the stream.
 */
export async function openStream(engine: EngineClient, connection: Connection, path: string, query?: Query, send?: StreamRequestBody): Promise<StreamedResponse> {
  const prefix = engine.version === undefined ? '' : `/v${engine.version}`;
  const fullPath = `${prefix}${path}${encodeQuery(query)}`;
  const method = send?.method ?? 'GET';
  const record: ExchangeRecord = {
    method, path: fullPath, mode: 'stream', sent: recordSent(send ? { 'content-type': send.contentType } : {}, send?.body), offVersion: engine.offVersion,
  };
  engine.exchanges.push(record);
  const { statusCode, headers, body } = await request(new URL(fullPath, connection.origin), {
    method,
    ...(send && { headers: { 'content-type': send.contentType }, body: send.body }),
    dispatcher: connectionDispatcher(connection),
    signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
  });
  const contentType = Array.isArray(headers['content-type']) ? headers['content-type'].join(', ') : headers['content-type'];
  Object.assign(record, { status: statusCode, contentType });
  let preview = '';
  body.on('data', (chunk: Buffer) => {
    if (preview.length < PREVIEW_LENGTH) record.bodyPreview = preview = (preview + chunk.toString('utf8')).slice(0, PREVIEW_LENGTH);
  });
  return new StreamedResponse(statusCode, contentType, body, `${method} ${fullPath} → ${statusCode}`);
}

/** The complete top-level `{…}` / `[…]` values of a text, by bracket depth outside strings. */
export function splitJsonObjects(text: string): string[] {
  return scanJsonObjects(text).map(({ value }) => value);
}

/** The whole JSON objects and arrays in `text`, each with the index just after it. */
function scanJsonObjects(text: string): { value: string; end: number }[] {
  const values: { value: string; end: number }[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === '{' || char === '[') {
      if (depth++ === 0) start = index;
    } else if ((char === '}' || char === ']') && depth > 0 && --depth === 0) {
      values.push({ value: text.slice(start, index + 1), end: index + 1 });
    }
  }
  return values;
}
