/** Test helper: requests to a reference started on 127.0.0.1:0, answers read whole. */
import { request } from 'undici';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
  json<T = Record<string, unknown>>(): T;
}

export interface CallOptions {
  json?: unknown;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

export type Call = (method: string, path: string, options?: CallOptions) => Promise<Answer>;

/** `engineUrl` as startReference returns it (`tcp://…`). */
export function httpCaller(engineUrl: string): Call {
  const origin = engineUrl.replace(/^tcp:/, 'http:');
  return async (method, path, options = {}) => {
    const body = options.json === undefined ? options.body : JSON.stringify(options.json);
    const headers = { ...(options.json !== undefined && { 'content-type': 'application/json' }), ...options.headers };
    const res = await request(`${origin}${path}`, { method: method as 'GET', body, headers });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    const text = bytes.toString('utf8');
    return { status: res.statusCode, headers: res.headers, body: bytes, text, json: () => JSON.parse(text) };
  };
}
