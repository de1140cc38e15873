/**
 * The reference as a library: start its servers, get their URLs, close them. Users run it as a fake
 * daemon in their own tests; the harness runs it as the default target. Test-only controls live on
 * the returned object, never on the emulated API's paths.
 */
import { lstat, unlink } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DIALECTS, type DialectName } from '../harness/dialect.ts';
import { createEngineServer } from './engine/http/engine-server.ts';
import { EngineModel } from './engine/model/engine-model.ts';
import type { Scheduler } from './engine/process/index.ts';

export interface ReferenceOptions {
  /** `unix:///path/to.sock` or `tcp://HOST:PORT` (port 0 picks a free one); default `tcp://127.0.0.1:0` */
  engine?: string;
  /** vendor names on the wire; default `engine` */
  dialect?: DialectName;
  /** the engine's clock (default: real time) */
  clock?: () => Date;
  /** the engine's id source, 64 hex digits per call (default: random) */
  ids?: () => string;
  /** the clock container processes sleep on, and stop timeouts and restart delays wait on (default: real time) */
  scheduler?: Scheduler;
  /** whether the engine manages a one-node swarm (default: it does; false answers swarm endpoints as a node outside a swarm) */
  swarm?: boolean;
}

export interface RunningReference {
  /** `unix:///path` or `tcp://HOST:PORT` with the port actually bound */
  engineUrl: string;
  /** the engine's state, for tests that arrange or inspect it directly */
  model: EngineModel;
  /** test-only: back to a fresh engine (no containers, seeded images) without restarting */
  reset(): void;
  /** stops listening, ends open connections (keep-alive and streaming ones included) and every container process */
  close(): Promise<void>;
}

const DEFAULT_ENGINE_ADDRESS = 'tcp://127.0.0.1:0';

type ListenAddress = { kind: 'unix'; path: string } | { kind: 'tcp'; host: string; port: number };

export function parseListenAddress(address: string): ListenAddress {
  if (address.startsWith('unix://')) {
    const path = address.slice('unix://'.length);
    if (path.startsWith('/')) return { kind: 'unix', path };
  }
  const tcp = /^tcp:\/\/([^:/]+):(\d+)$/.exec(address);
  if (tcp?.[1] && tcp[2] && Number(tcp[2]) <= 65_535) return { kind: 'tcp', host: tcp[1], port: Number(tcp[2]) };
  throw new Error(`expected unix:///PATH or tcp://HOST:PORT, got ${JSON.stringify(address)}`);
}

export async function startReference(options: ReferenceOptions = {}): Promise<RunningReference> {
  const model = new EngineModel({ clock: options.clock, ids: options.ids, scheduler: options.scheduler, swarm: options.swarm ?? true });
  const server = createEngineServer({ model, dialect: DIALECTS[options.dialect ?? 'engine'] });
  const engineUrl = await listen(server, parseListenAddress(options.engine ?? DEFAULT_ENGINE_ADDRESS));
  return {
    engineUrl,
    model,
    reset: () => model.reset(),
    close: async () => {
      await closeServer(server);
      model.reset();
    },
  };
}

async function listen(server: Server, address: ListenAddress): Promise<string> {
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

/** A socket file left by a process that died would make listen fail; anything else at that path is left alone. */
async function removeStaleSocket(path: string): Promise<void> {
  const existing = await lstat(path).catch(() => undefined);
  if (existing?.isSocket()) await unlink(path);
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
