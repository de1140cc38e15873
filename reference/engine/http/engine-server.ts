/**
 * The engine API over node:http: finds the route, checks the requested version, hands the handler a
 * clean context and turns whatever it throws into the version's error body. A request with an
 * Upgrade header (a hijacked attach or exec start, a websocket) arrives with its raw connection and
 * goes through the same routes; a handler that does not take the connection over answers on it as
 * on any other, and the connection closes after the answer.
 */
import { Server, ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Dialect } from '../../../harness/dialect.ts';
import type { EngineModel } from '../model/engine-model.ts';
import { attachRoutes } from './attach-routes.ts';
import { authRoutes } from './auth-routes.ts';
import { buildRoutes } from './build-routes.ts';
import { commitRoutes } from './commit-routes.ts';
import { containerRoutes } from './container-routes.ts';
import { sendError, sendFailure } from './error-responses.ts';
import { eventRoutes } from './event-routes.ts';
import { execRoutes } from './exec-routes.ts';
import { imageRoutes } from './image-routes.ts';
import { imageTarballRoutes } from './image-tarball-routes.ts';
import { networkRoutes } from './network-routes.ts';
import { pluginRoutes } from './plugin-routes.ts';
import { PERSONALITIES, type Personality } from './personality.ts';
import { pruneRoutes } from './prune-routes.ts';
import { parseRequestQuery } from './request-query.ts';
import { RouteTable, type Route, type UpgradedConnection } from './route-table.ts';
import { IDENTITY_HEADERS } from './server-identity.ts';
import { serviceRoutes } from './service-routes.ts';
import { specStatuses } from './spec-statuses.ts';
import { swarmRoutes } from './swarm-routes.ts';
import { systemRoutes } from './system-routes.ts';
import { taskRoutes } from './task-routes.ts';
import { volumeRoutes } from './volume-routes.ts';
import { checkVersion, splitVersionPrefix } from './version-prefix.ts';

export interface EngineServerOptions {
  model: EngineModel;
  /** vendor names (raw-stream content type, path-stat header, root directory field) */
  dialect: Dialect;
  /** the choices the spec leaves open: dockerd's, or the other allowed ones (default dockerd's) */
  personality?: Personality;
}

/** What every request of one server shares. */
interface Served {
  model: EngineModel;
  dialect: Dialect;
  personality: Personality;
}

/** Every route of the engine API, in the order they are matched. */
export const ENGINE_ROUTES: readonly Route[] = [
  ...pruneRoutes, ...systemRoutes, ...authRoutes, ...eventRoutes, ...containerRoutes, ...attachRoutes, ...execRoutes, ...imageTarballRoutes, ...imageRoutes, ...commitRoutes, ...buildRoutes,
  ...networkRoutes, ...volumeRoutes, ...pluginRoutes, ...swarmRoutes, ...serviceRoutes, ...taskRoutes,
];

const ROUTES = new RouteTable([...ENGINE_ROUTES]);

/** An http.Server whose closeAllConnections also ends the connections handlers took over, which node no longer tracks. */
class EngineServer extends Server {
  readonly hijacked = new Set<Duplex>();

  override closeAllConnections(): void {
    super.closeAllConnections();
    for (const socket of this.hijacked) socket.destroy();
  }
}

export function createEngineServer({ model, dialect, personality = PERSONALITIES.dockerd }: EngineServerOptions): Server {
  const served: Served = { model, dialect, personality };
  const server = new EngineServer((request, response) => {
    void handle(request, response, served);
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    server.hijacked.add(socket);
    socket.once('close', () => server.hijacked.delete(socket));
    void handleUpgrade(request, socket, head, served);
  });
  return server;
}

async function handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, served: Served): Promise<void> {
  // Nothing else listens on the socket now: a reset by the client must not go unhandled.
  socket.on('error', () => socket.destroy());
  const response = new ServerResponse(request);
  response.assignSocket(socket as Socket);
  response.shouldKeepAlive = false;
  response.once('finish', () => socket.end());
  // The parser leaves an upgrade's body on the connection: it goes back into the request, where handlers read bodies.
  const body = await takeBody(request, socket, head);
  if (body.length > 0) request.unshift(body);
  await handle(request, response, served, { socket });
}

/**
 * The Content-Length bytes at the start of the connection (in `head` and what follows it); whatever
 * comes after them is the client's stream and goes back to the socket for the handler to read.
 */
async function takeBody(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<Buffer> {
  const length = Number(request.headers['content-length'] ?? 0) || 0;
  let received = head;
  while (received.length < length) {
    const chunk = await nextChunk(socket);
    if (chunk === null) break;
    received = Buffer.concat([received, chunk]);
  }
  const rest = received.subarray(length);
  if (rest.length > 0) socket.unshift(rest);
  return received.subarray(0, length);
}

/** The next chunk of a paused socket; null once it has ended. */
async function nextChunk(socket: Duplex): Promise<Buffer | null> {
  for (;;) {
    const chunk = socket.read() as Buffer | null;
    if (chunk !== null || socket.readableEnded || socket.destroyed) return chunk;
    await new Promise<void>((resolve) => {
      const wake = () => {
        socket.off('readable', wake);
        socket.off('close', wake);
        resolve();
      };
      socket.on('readable', wake);
      socket.on('close', wake);
    });
  }
}

async function handle(request: IncomingMessage, response: ServerResponse, { model, dialect, personality }: Served, upgrade?: UpgradedConnection): Promise<void> {
  for (const [name, value] of Object.entries(IDENTITY_HEADERS)) response.setHeader(name, value);
  const target = request.url ?? '/';
  const queryStart = target.indexOf('?');
  const { version: requested, path } = splitVersionPrefix(queryStart < 0 ? target : target.slice(0, queryStart));
  const match = ROUTES.match(request.method ?? 'GET', path);
  try {
    // dockerd answers an unknown route, or a known path under another method, with this 404.
    if (!match) return sendError(response, requested, 404, 'page not found', personality);
    const check = checkVersion(requested);
    if ('refusal' in check) return sendError(response, requested, 400, check.refusal, personality);
    const query = parseRequestQuery(queryStart < 0 ? '' : target.slice(queryStart + 1));
    await match.route.handle({ request, response, upgrade, version: check.served, params: match.params, query, model, dialect, personality });
  } catch (error) {
    const listed = match && specStatuses(match.route.method, match.route.path);
    if (!response.headersSent) sendFailure(response, requested, error, personality, listed);
    else response.destroy(error as Error);
  }
}
