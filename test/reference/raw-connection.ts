/**
 * Test helper: one HTTP request written byte for byte on a TCP connection to a reference, and the
 * connection kept — for hijacked streams, where what the client sends after the request and what
 * comes after the answer's head are the point.
 */
import { connect, type Socket } from 'node:net';

export interface RawConnection {
  status: number;
  /** lower-case names */
  headers: Record<string, string>;
  /** everything after the head so far */
  readonly body: Buffer;
  write(data: Buffer | string): void;
  /** half-closes: the server sees the end of the client's input */
  endInput(): void;
  /** resolves once `done(body)` holds, or the server closed the connection; rejects after `timeoutMs` */
  waitFor(done: (body: Buffer) => boolean, timeoutMs?: number): Promise<Buffer>;
  /** resolves with the whole body once the server has closed the connection */
  untilClosed(timeoutMs?: number): Promise<Buffer>;
  close(): void;
}

/** `engineUrl` as startReference returns it (`tcp://…`); `request` is the whole request, head and whatever follows. */
export async function rawRequest(engineUrl: string, request: Buffer | string): Promise<RawConnection> {
  const { hostname, port } = new URL(engineUrl.replace(/^tcp:/, 'http:'));
  const socket: Socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
  let received = Buffer.alloc(0);
  let closed = false;
  const wakers = new Set<() => void>();
  const wake = () => wakers.forEach((waker) => waker());
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    wake();
  });
  socket.on('end', () => {
    closed = true;
    wake();
  });
  socket.on('close', () => {
    closed = true;
    wake();
  });
  socket.write(request);

  const waitFor = (done: (bytes: Buffer) => boolean, timeoutMs = 2000): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      const check = () => {
        if (!done(received) && !closed) return;
        clearTimeout(timer);
        wakers.delete(check);
        resolve(received);
      };
      const timer = setTimeout(() => {
        wakers.delete(check);
        reject(new Error(`nothing more within ${timeoutMs} ms; received ${JSON.stringify(received.toString('latin1'))}`));
      }, timeoutMs);
      wakers.add(check);
      check();
    });

  const all = await waitFor((bytes) => bytes.includes('\r\n\r\n'));
  const headEnd = all.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = all.subarray(0, headEnd).toString('latin1').split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  const bodyOf = (bytes: Buffer) => bytes.subarray(headEnd + 4);
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    get body() {
      return bodyOf(received);
    },
    write: (data) => socket.write(data),
    endInput: () => socket.end(),
    waitFor: async (done, timeoutMs) => bodyOf(await waitFor((bytes) => done(bodyOf(bytes)), timeoutMs)),
    untilClosed: async (timeoutMs) => bodyOf(await waitFor(() => false, timeoutMs)),
    close: () => socket.destroy(),
  };
}

/** A request head with an optional JSON body; `Upgrade: tcp` unless `upgrade` is false. */
export function httpRequest(method: string, path: string, options: { json?: unknown; upgrade?: boolean; headers?: Record<string, string> } = {}): string {
  const body = options.json === undefined ? '' : JSON.stringify(options.json);
  const headers: Record<string, string> = {
    Host: 'reference',
    ...(options.upgrade !== false && { Connection: 'Upgrade', Upgrade: 'tcp' }),
    ...(body && { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) }),
    ...options.headers,
  };
  return `${method} ${path} HTTP/1.1\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`;
}
