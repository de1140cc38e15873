/**
 * Where the reference's servers listen: `unix:///path` or `tcp://HOST:PORT` (port 0 picks a free one),
 * and how they stop. Shared by the engine, the token service and the accounts API.
 */
import { lstat, unlink } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ListenAddress = { kind: 'unix'; path: string } | { kind: 'tcp'; host: string; port: number };

export function parseListenAddress(address: string): ListenAddress {
  if (address.startsWith('unix://')) {
    const path = address.slice('unix://'.length);
    if (path.startsWith('/')) return { kind: 'unix', path };
  }
  const tcp = /^tcp:\/\/([^:/]+):(\d+)$/.exec(address);
  if (tcp?.[1] && tcp[2] && Number(tcp[2]) <= 65_535) return { kind: 'tcp', host: tcp[1], port: Number(tcp[2]) };
  throw new Error(`expected unix:///PATH or tcp://HOST:PORT, got ${JSON.stringify(address)}`);
}

/** Listens and returns the address actually bound, `unix:///path` or `tcp://HOST:PORT`. */
export async function listen(server: Server, address: ListenAddress): Promise<string> {
  // Go's http.Server (dockerd, distribution) never closes an idle connection; node's 5 s default races a
  // client that reuses one just then ("other side closed", ECONNRESET on a busy machine). 0: idle
  // connections stay until the client ends them.
  server.keepAliveTimeout = 0;
  if (address.kind === 'unix') await removeStaleSocket(address.path);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const ready = () => {
      server.off('error', reject);
      resolve();
    };
    if (address.kind === 'unix') server.listen(address.path, ready);
    else server.listen(address.port, address.host, ready);
  });
  if (address.kind === 'unix') return `unix://${address.path}`;
  return `tcp://${address.host}:${(server.address() as AddressInfo).port}`;
}

/** A bound `tcp://HOST:PORT` as the `http://HOST:PORT` URL clients (and a registry's token realm) use; a Unix socket stays as it is. */
export function httpUrl(bound: string): string {
  return bound.replace(/^tcp:/, 'http:');
}

/** A socket file left by a process that died would make listen fail; anything else at that path is left alone. */
async function removeStaleSocket(path: string): Promise<void> {
  const existing = await lstat(path).catch(() => undefined);
  if (existing?.isSocket()) await unlink(path);
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
