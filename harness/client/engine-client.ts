/**
 * The engine API as a check sees it: one client bound to one API version, so every request a check
 * makes carries the `/vX.Y` prefix of the version under test. `unversioned(because)` and `at(version,
 * because)` reach the rest, and every exchange they make carries the reason (the check wrapper fails
 * a check with an off-version request that gives none).
 */
import { request, upgrade, type Dispatcher } from 'undici';
import type { Connection } from '../target.ts';
import { ApiResponse, NonConformingResponse, type ExchangeRecord } from './api-response.ts';
import { HijackedStream } from './hijacked-stream.ts';
import { recordSent } from './sent-request.ts';

export type QueryValue = string | number | boolean | undefined | string[];
export type Query = Record<string, QueryValue>;

export interface RequestOptions {
  query?: Query;
  headers?: Record<string, string>;
  /** a JSON value (sent as application/json), or raw bytes */
  json?: unknown;
  body?: Buffer | string;
  signal?: AbortSignal;
}

export function encodeQuery(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export class EngineClient {
  constructor(
    private readonly connection: Connection,
    private readonly dispatcher: Dispatcher,
    /** `1.24`, or undefined for the unprefixed view (the server's current version) */
    readonly version: string | undefined,
    /** every exchange, oldest first, shared by all views of one check: failure messages quote the last ones */
    readonly exchanges: ExchangeRecord[] = [],
    /** why this view's requests are not at the version under test (clean-up, a probe, a check about prefixes) */
    readonly offVersion?: string,
  ) {}

  /** The same target under another version prefix, sharing the exchange log; `because` says why. */
  at(version: string, because: string): EngineClient {
    return new EngineClient(this.connection, this.dispatcher, version, this.exchanges, because);
  }

  /** The same target without a prefix (the server's current version), sharing the exchange log; `because` says why. */
  unversioned(because: string): EngineClient {
    return new EngineClient(this.connection, this.dispatcher, undefined, this.exchanges, because);
  }

  get(path: string, options?: RequestOptions): Promise<ApiResponse> {
    return this.send('GET', path, options);
  }
  head(path: string, options?: RequestOptions): Promise<ApiResponse> {
    return this.send('HEAD', path, options);
  }
  post(path: string, options?: RequestOptions): Promise<ApiResponse> {
    return this.send('POST', path, options);
  }
  put(path: string, options?: RequestOptions): Promise<ApiResponse> {
    return this.send('PUT', path, options);
  }
  delete(path: string, options?: RequestOptions): Promise<ApiResponse> {
    return this.send('DELETE', path, options);
  }

  /** A request under this client's version prefix. */
  send(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const prefix = this.version === undefined ? '' : `/v${this.version}`;
    return this.raw(method, `${prefix}${path}`, options);
  }

  /** A request to exactly this path: for checks about prefixes themselves. */
  async raw(method: string, fullPath: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const pathWithQuery = `${fullPath}${encodeQuery(options.query)}`;
    const headers: Record<string, string> = { ...options.headers };
    let body = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    const record: ExchangeRecord = { method, path: pathWithQuery, sent: recordSent(headers, body), offVersion: this.offVersion };
    this.exchanges.push(record);
    const startedAt = performance.now();
    const response = await request(new URL(pathWithQuery, this.connection.origin), {
      method: method as Dispatcher.HttpMethod,
      headers,
      body,
      dispatcher: this.dispatcher,
      signal: options.signal,
    });
    const bytes = Buffer.from(await response.body.arrayBuffer());
    const flatHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) flatHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const answer = new ApiResponse(method, pathWithQuery, response.statusCode, flatHeaders, bytes);
    Object.assign(record, answer.record(), { elapsedMs: performance.now() - startedAt });
    return answer;
  }

  /**
   * POST (or, for logs, GET) with `Upgrade: tcp` (attach, exec start): resolves once the daemon
   * answered 101 with the hijacked stream. Any other answer rejects with NonConformingResponse (the
   * target's fault, so it fails the check), and the exchange log shows it.
   */
  async hijack(path: string, options: Pick<RequestOptions, 'query' | 'json' | 'signal'> & { method?: 'GET' | 'POST' } = {}): Promise<HijackedStream> {
    const prefix = this.version === undefined ? '' : `/v${this.version}`;
    const pathWithQuery = `${prefix}${path}${encodeQuery(options.query)}`;
    const method = options.method ?? 'POST';
    const body = options.json === undefined ? undefined : JSON.stringify(options.json);
    const upgradeHeaders = { connection: 'Upgrade', upgrade: 'tcp', ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
    const record: ExchangeRecord = { method, path: pathWithQuery, mode: 'upgrade', sent: recordSent(upgradeHeaders, body), offVersion: this.offVersion };
    this.exchanges.push(record);
    let upgraded: Awaited<ReturnType<typeof upgrade>>;
    try {
      upgraded = await upgrade(new URL(pathWithQuery, this.connection.origin), {
        method,
        protocol: 'tcp',
        headers: { connection: 'Upgrade', ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }) },
        dispatcher: this.dispatcher,
        signal: options.signal,
        ...(body === undefined ? {} : { body }),
      } as Parameters<typeof upgrade>[1]);
    } catch (error) {
      // undici rejects every answer but 101 with "bad upgrade": that is the target's answer, not the check's error.
      if ((error as Error).message === 'bad upgrade') {
        throw new NonConformingResponse(`${method} ${prefix}${path} with Upgrade: tcp was not answered 101: the target refused to hijack the connection`);
      }
      throw error;
    }
    const { headers, socket } = upgraded;
    const contentType = headers['content-type'];
    Object.assign(record, { status: 101, contentType: Array.isArray(contentType) ? contentType.join(', ') : contentType });
    return new HijackedStream(headers, socket);
  }
}
