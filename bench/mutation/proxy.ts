/**
 * A mutating proxy: an HTTP proxy in front of one reference service (the engine, the token service or
 * the accounts API) that injects ONE implementer bug, the mutant's, into the requests and responses
 * it matches. Everything else passes through untouched: bodies stream, `Upgrade: tcp` hijacks and
 * websockets are spliced socket to socket (a mutant may still rewrite an upgrade's request target).
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export type Service = 'engine' | 'token' | 'accounts';

/** What a mutant sees of a request it matched; its `request` transform edits it in place. */
export interface RequestView {
  method: string;
  /** the path without its `/vX.Y` prefix */
  path: string;
  /** the version of the prefix, '1.25' (the reference's current) when unprefixed */
  version: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** the JSON body, when the request had one */
  json?: unknown;
  /** the form body (application/x-www-form-urlencoded), when the request had one */
  form?: URLSearchParams;
}

/** What a mutant sees of a response it matched; its `response` transform edits it in place. */
export interface ResponseView {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** the parsed JSON body, when the body was JSON; edited in place or replaced */
  json?: unknown;
  /** the raw body text; used as the body when `json` is undefined */
  text: string;
}

export interface Mutant {
  /** kebab-case, unique in the catalogue */
  id: string;
  /** where the rule is: 'spec/1 §4.1' */
  passage: string;
  /** the sentence (or table cell) the bug breaks, quoted from the passage */
  quote: string;
  /** the bug, as an implementer would have written it */
  bug: string;
  /** the checks to run: a --only glob */
  only: string;
  /** the versions to run: a --api value */
  api: string;
  service: Service;
  /** which requests the bug is in */
  method?: string | string[];
  path: RegExp;
  minVersion?: string;
  maxVersion?: string;
  /** rewrites the request (query, JSON or form body) before it goes upstream */
  request?: (req: RequestView) => void;
  /** rewrites the whole (buffered) response: only for responses that end */
  response?: (res: ResponseView, req: RequestView) => void;
  /** rewrites a streamed JSON response object by object (events): undefined drops the object */
  eachObject?: (obj: Record<string, unknown>, req: RequestView) => Record<string, unknown> | undefined;
}

export function versionNumber(v: string): number {
  const [major, minor] = v.split('.');
  return Number(major) * 1000 + Number(minor);
}

const CURRENT = '1.25';

function splitVersion(rawPath: string): { version: string; path: string } {
  const m = /^\/v(\d+\.\d+)(\/.*)?$/.exec(rawPath);
  if (m?.[1]) return { version: m[1], path: m[2] ?? '/' };
  return { version: CURRENT, path: rawPath };
}

function applies(mutant: Mutant | undefined, service: Service, method: string, rawPath: string): mutant is Mutant {
  if (!mutant || mutant.service !== service) return false;
  const { version, path } = splitVersion(rawPath);
  if (mutant.method !== undefined) {
    const methods = Array.isArray(mutant.method) ? mutant.method : [mutant.method];
    if (!methods.includes(method)) return false;
  }
  if (!mutant.path.test(path)) return false;
  if (mutant.minVersion && versionNumber(version) < versionNumber(mutant.minVersion)) return false;
  if (mutant.maxVersion && versionNumber(version) > versionNumber(mutant.maxVersion)) return false;
  return true;
}

function requestView(method: string, url: string, headers: http.IncomingHttpHeaders): RequestView {
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  const { version, path } = splitVersion(rawPath);
  return { method, path, version, query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)), headers };
}

function rebuildUrl(url: string, view: RequestView): string {
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  const query = view.query.toString();
  return query ? `${rawPath}?${query}` : rawPath;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

function flatHeaders(raw: string[], drop: string[] = []): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    if (drop.includes(name.toLowerCase())) continue;
    out.push(name, raw[i + 1] as string);
  }
  return out;
}

export interface MutatingProxy {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Starts a proxy on 127.0.0.1 (a free port) in front of `upstream` (host and port of one reference
 * service), with `mutant` injected where it applies to `service` (none: a plain pass-through).
 */
export async function startProxy(options: { upstream: { host: string; port: number }; service: Service; mutant?: Mutant }): Promise<MutatingProxy> {
  const { upstream, service, mutant } = options;
  const agent = new http.Agent({ keepAlive: true });
  const sockets = new Set<net.Socket>();

  const server = http.createServer((req, res) => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const rawPath = url.split('?')[0] ?? '/';
    const mutate = applies(mutant, service, method, rawPath);
    const fail = (error: unknown): void => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`mutation proxy: ${String(error)}`);
    };
    if (!mutate) {
      const up = http.request({ ...upstream, agent, method, path: url, headers: flatHeaders(req.rawHeaders) as unknown as http.OutgoingHttpHeaders }, (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, flatHeaders(upRes.rawHeaders));
        // sent now, not with the first chunk: a client of a stream (events) waits for the headers before
        // it causes what the stream will carry
        res.flushHeaders();
        upRes.pipe(res);
      });
      up.on('error', fail);
      res.on('close', () => { if (!res.writableFinished) up.destroy(); });
      req.pipe(up);
      return;
    }
    void (async () => {
      const view = requestView(method, url, req.headers);
      let body = await readAll(req);
      let target = url;
      const dropRequest = ['content-length'];
      const type = String(req.headers['content-type'] ?? '');
      if (body.length > 0 && type.includes('json')) {
        try { view.json = JSON.parse(body.toString('utf8')); } catch { /* not JSON: left as is */ }
      } else if (body.length > 0 && type.includes('x-www-form-urlencoded')) {
        view.form = new URLSearchParams(body.toString('utf8'));
      }
      if (mutant.request) {
        mutant.request(view);
        if (view.json !== undefined) body = Buffer.from(JSON.stringify(view.json));
        else if (view.form !== undefined) body = Buffer.from(view.form.toString());
        target = rebuildUrl(url, view);
        dropRequest.push('transfer-encoding');
      }
      const headers = flatHeaders(req.rawHeaders, dropRequest);
      if (body.length > 0 || dropRequest.includes('transfer-encoding')) headers.push('Content-Length', String(body.length));
      const up = http.request({ ...upstream, agent, method, path: target, headers: headers as unknown as http.OutgoingHttpHeaders }, (upRes) => {
        void (async () => {
          const status = upRes.statusCode ?? 502;
          if (mutant.response) {
            const text = (await readAll(upRes)).toString('utf8');
            const view2: ResponseView = { status, headers: { ...upRes.headers }, text };
            if (String(upRes.headers['content-type'] ?? '').includes('json')) {
              try { view2.json = JSON.parse(text); } catch { /* a JSON stream or not JSON: text only */ }
            }
            mutant.response(view2, view);
            const out = view2.json !== undefined ? `${JSON.stringify(view2.json)}\n` : view2.text;
            const outHeaders: Record<string, string | string[]> = {};
            for (const [k, v] of Object.entries(view2.headers)) if (v !== undefined && k !== 'content-length' && k !== 'transfer-encoding') outHeaders[k] = v;
            outHeaders['content-length'] = String(Buffer.byteLength(out));
            res.writeHead(view2.status, outHeaders);
            res.end(out);
          } else if (mutant.eachObject) {
            const eachObject = mutant.eachObject;
            res.writeHead(status, upRes.statusMessage, flatHeaders(upRes.rawHeaders, ['content-length']));
            res.flushHeaders();
            let pending = '';
            upRes.setEncoding('utf8');
            upRes.on('data', (chunk: string) => {
              pending += chunk;
              let nl: number;
              while ((nl = pending.indexOf('\n')) >= 0) {
                const line = pending.slice(0, nl);
                pending = pending.slice(nl + 1);
                if (line.trim() === '') continue;
                let obj: unknown;
                try { obj = JSON.parse(line); } catch { res.write(`${line}\n`); continue; }
                const mutated = obj !== null && typeof obj === 'object' && !Array.isArray(obj) ? eachObject(obj as Record<string, unknown>, view) : obj;
                if (mutated !== undefined) res.write(`${JSON.stringify(mutated)}\n`);
              }
            });
            upRes.on('end', () => res.end(pending));
          } else {
            res.writeHead(status, upRes.statusMessage, flatHeaders(upRes.rawHeaders));
            res.flushHeaders();
            upRes.pipe(res);
          }
        })().catch(fail);
      });
      up.on('error', fail);
      res.on('close', () => { if (!res.writableFinished) up.destroy(); });
      up.end(body);
    })().catch(fail);
  });

  // Hijacks (`Upgrade: tcp`) and websockets: spliced socket to socket, the request head rewritten only
  // when the mutant applies and rewrites the query.
  server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const method = req.method ?? 'GET';
    let url = req.url ?? '/';
    if (applies(mutant, service, method, url.split('?')[0] ?? '/') && mutant.request) {
      const view = requestView(method, url, req.headers);
      mutant.request(view);
      url = rebuildUrl(url, view);
    }
    const up = net.connect({ ...upstream, allowHalfOpen: true });
    sockets.add(up);
    sockets.add(socket);
    up.on('close', () => sockets.delete(up));
    socket.on('close', () => sockets.delete(socket));
    up.on('connect', () => {
      const lines = [`${method} ${url} HTTP/${req.httpVersion}`];
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) up.write(head);
      socket.pipe(up);
      up.pipe(socket);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      for (const s of sockets) s.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
