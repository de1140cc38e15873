/**
 * What one request may cost the reference's servers (engine, token service, accounts API): body size
 * per class of body, header and URL size, and how long an upload may stall. Bodies are read here,
 * chunks collected and joined once; past a limit the request ends with a 4xx naming the limit and the
 * connection closes (the rest of the body is never read). dockerd sets none of these but Go's 1 MiB
 * header limit (431); the reference keeps its bodies in memory, so it bounds them.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpError } from './http-error.ts';

export interface RequestLimits {
  /** engine JSON bodies (create, update, connect, service specs, …) */
  jsonBodyBytes: number;
  /** tar bodies: build contexts, PUT archive, image load and import, plugin contexts */
  tarBodyBytes: number;
  /** the token service's and accounts API's forms and JSON bodies */
  formBodyBytes: number;
  /** the request line and headers together (node's maxHeaderSize): past it, 431 */
  headerBytes: number;
  /** the request target (path and query): past it, 414 */
  urlBytes: number;
  /** how long a body (or a hijacked request's Content-Length bytes) may go without a byte: past it, 408 */
  idleTimeoutMs: number;
}

const KIB = 1024;
const MIB = 1024 * KIB;

/**
 * JSON 4 MiB: far above any real create or spec body (containerd caps a label at 4 KiB, swarmkit's
 * gRPC a whole service spec at 4 MiB), and small enough that what one stored value costs each list
 * call stays bounded. Tar 512 MiB: build contexts and image tarballs are held in memory (about twice
 * their size while read). Forms 1 MiB: a token request is a few hundred bytes, a scope list a few KiB.
 * Headers 64 KiB: X-Registry-Config of many registries fits; URL 16 KiB: long filters JSON fits.
 */
export const DEFAULT_LIMITS: Readonly<RequestLimits> = {
  jsonBodyBytes: 4 * MIB,
  tarBodyBytes: 512 * MIB,
  formBodyBytes: 1 * MIB,
  headerBytes: 64 * KIB,
  urlBytes: 16 * KIB,
  idleTimeoutMs: 60_000,
};

/** The `serve` flag that sets each limit, for the messages that name it. */
export const LIMIT_FLAGS: Readonly<Record<keyof RequestLimits, string>> = {
  jsonBodyBytes: '--max-json-body',
  tarBodyBytes: '--max-tar-body',
  formBodyBytes: '--max-form-body',
  headerBytes: '--max-header',
  urlBytes: '--max-url',
  idleTimeoutMs: '--idle-timeout',
};

export type BodyClass = 'json' | 'tar' | 'form';

const BODY_LIMIT: Record<BodyClass, 'jsonBodyBytes' | 'tarBodyBytes' | 'formBodyBytes'> = { json: 'jsonBodyBytes', tar: 'tarBodyBytes', form: 'formBodyBytes' };

/** A request refused for what it costs; its answer closes the connection. */
export class RequestLimitError extends HttpError {
  override name = 'RequestLimitError';
}

export function resolveLimits(limits: Partial<RequestLimits> = {}): RequestLimits {
  const resolved = { ...DEFAULT_LIMITS, ...limits };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`limit ${name} must be a positive integer, got ${String(value)}`);
  }
  return resolved;
}

/** `1048576` → `1 MiB`, for messages. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [['GiB', 1024 * MIB], ['MiB', MIB], ['KiB', KIB]] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}

const requestLimits = new WeakMap<IncomingMessage, RequestLimits>();

/** The limits a request's body is read under (the server's, set as it arrives; the defaults otherwise). */
export function limitsOf(request: IncomingMessage): RequestLimits {
  return requestLimits.get(request) ?? DEFAULT_LIMITS;
}

/** The whole body, within its class's size limit and the idle timeout. */
export async function readBody(request: IncomingMessage, kind: BodyClass): Promise<Buffer> {
  const limits = limitsOf(request);
  const limit = limits[BODY_LIMIT[kind]];
  const declared = Number(request.headers['content-length']);
  if (declared > limit) throw bodyTooLarge(limits, kind);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of withIdleTimeout(request, limits.idleTimeoutMs)) {
    size += chunk.length;
    if (size > limit) throw bodyTooLarge(limits, kind);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** 413 for a body over its class's limit. */
export function bodyTooLarge(limits: RequestLimits, kind: BodyClass): RequestLimitError {
  const name = BODY_LIMIT[kind];
  return new RequestLimitError(413, `the request body is larger than the ${formatBytes(limits[name])} a ${kind} body may have (${LIMIT_FLAGS[name]})`);
}

/** The stream's chunks; rejects with 408 when none comes for `idleMs`. */
async function* withIdleTimeout(stream: IncomingMessage, idleMs: number): AsyncGenerator<Buffer> {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(stalledError(idleMs)), idleMs);
    });
    try {
      const next = await Promise.race([iterator.next(), stalled]);
      if (next.done) return;
      yield next.value;
    } finally {
      clearTimeout(timer);
    }
  }
}

export function stalledError(idleMs: number): RequestLimitError {
  return new RequestLimitError(408, `the request body stalled: no byte for ${idleMs / 1000} s (${LIMIT_FLAGS.idleTimeoutMs})`);
}

/** The options node:http takes at construction for these limits. */
export function serverOptions(limits: RequestLimits): { maxHeaderSize: number } {
  return { maxHeaderSize: limits.headerBytes };
}

/** What node answers a request it cannot parse (its socketOnError), with a reason where a limit was passed. */
function clientErrorAnswer(error: NodeJS.ErrnoException, limits: RequestLimits): string {
  // The reason is in the status line, and there is no body: the request's method is unknown (its head
  // was not read), and the answer to a HEAD has none (a client reading one would take the body for the next answer).
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return `HTTP/1.1 431 Request Header Fields Too Large: the request line and headers are larger than ${formatBytes(limits.headerBytes)} (${LIMIT_FLAGS.headerBytes})\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';
  return 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';
}

/**
 * How long a refused connection goes on reading (and dropping) what the client still sends. Closing
 * a socket with bytes unread sends a reset, and a client still writing its body then loses the answer
 * (node's http client reports ECONNRESET, not the 431): so the answer goes, then a lingering close.
 */
const LINGER_MS = 2_000;

/** Answers oversized headers with a reason (431); every other parse error as node does. */
export function answerClientErrors(server: Server, limits: RequestLimits): void {
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex & { _httpMessage?: { headersSent: boolean } | null }) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    // node's own rule: answer unless a response on this socket has begun (on a kept-alive connection
    // earlier responses were written whole: they do not count)
    if (!socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorAnswer(error, limits));
    socket.on('data', () => undefined);
    socket.once('end', () => socket.destroy());
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}

/**
 * Puts a request under the limits (its body is read under them) and refuses a target longer than the
 * URL limit: the refusal to answer with, or undefined.
 */
export function admitRequest(request: IncomingMessage, limits: RequestLimits): RequestLimitError | undefined {
  requestLimits.set(request, limits);
  const length = (request.url ?? '').length;
  if (length > limits.urlBytes) return new RequestLimitError(414, `the request target is longer than ${formatBytes(limits.urlBytes)} (${LIMIT_FLAGS.urlBytes})`);
  return undefined;
}

/** A request target as its path and query, whatever it holds (`//`, `@host`, an absolute URL are all paths here): never throws. */
export function splitTarget(target: string): { pathname: string; searchParams: URLSearchParams } {
  const queryStart = target.indexOf('?');
  return queryStart < 0
    ? { pathname: target, searchParams: new URLSearchParams() }
    : { pathname: target.slice(0, queryStart), searchParams: new URLSearchParams(target.slice(queryStart + 1)) };
}
