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
import type { Dialect } from '../../../protocol/dialect.ts';
import type { EngineModel } from '../model/engine-model.ts';
import { EngineError } from '../model/common/errors.ts';
import { logBug, guardedListener, STDERR_LOG, type BugLog } from '../../request-pipeline.ts';
import { admitRequest, answerClientErrors, bodyTooLarge, RequestLimitError, resolveLimits, serverOptions, stalledError, type RequestLimits } from '../../request-limits.ts';
import { attachRoutes } from './attach-routes.ts';
import { authRoutes } from './auth-routes.ts';
import { buildRoutes } from './build-routes.ts';
import { commitRoutes } from './commit-routes.ts';
import { containerRoutes } from './container-routes.ts';
import { sendError, sendFailure } from './error-responses.ts';
import { eventRoutes } from './event-routes.ts';
import { HttpError } from '../../http-error.ts';
import { execRoutes } from './exec-routes.ts';
import { imageRoutes } from './image-routes.ts';
import { imageTarballRoutes } from './image-tarball-routes.ts';
import { networkRoutes } from './network-routes.ts';
import { pluginRoutes } from './plugin-routes.ts';
import { PERSONALITIES, type Personality } from './personality.ts';
import { pruneRoutes } from './prune-routes.ts';
import { parseRequestQuery } from './request-query.ts';
import { RouteTable, type Route, type RouteMatch, type UpgradedConnection } from './route-table.ts';
import { IDENTITY_HEADERS } from './server-identity.ts';
import { configRoutes, secretRoutes } from './swarm-data-routes.ts';
import { serviceLogRoutes } from './service-log-routes.ts';
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
  /** what one request may cost (defaults: DEFAULT_LIMITS) */
  limits?: Partial<RequestLimits>;
  /** where the server's own bugs are logged (default: stderr) */
  log?: BugLog;
}

/** What every request of one server shares. */
interface Served {
  model: EngineModel;
  dialect: Dialect;
  personality: Personality;
  limits: RequestLimits;
  log: BugLog;
}

/** Every route of the engine API, in the order they are matched. */
export const ENGINE_ROUTES: readonly Route[] = [
  ...pruneRoutes, ...systemRoutes, ...authRoutes, ...eventRoutes, ...containerRoutes, ...attachRoutes, ...execRoutes, ...imageTarballRoutes, ...imageRoutes, ...commitRoutes, ...buildRoutes,
  ...networkRoutes, ...volumeRoutes, ...pluginRoutes, ...swarmRoutes, ...serviceRoutes, ...serviceLogRoutes, ...taskRoutes, ...secretRoutes, ...configRoutes,
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

export function createEngineServer({ model, dialect, personality = PERSONALITIES.dockerd, limits, log = STDERR_LOG }: EngineServerOptions): Server {
  const served: Served = { model, dialect, personality, limits: resolveLimits(limits), log };
  const server = new EngineServer(serverOptions(served.limits), guardedListener('engine', log, (request, response) => handle(request, response, served)));
  answerClientErrors(server, served.limits);
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    server.hijacked.add(socket);
    socket.once('close', () => server.hijacked.delete(socket));
    handleUpgrade(request, socket, head, served).catch((error: unknown) => {
      logBug(log, 'engine', request, error);
      socket.destroy();
    });
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
  const restoreBody = async () => {
    const body = await takeBody(request, socket, head, served.limits);
    if (body.length > 0) request.unshift(body);
  };
  await handle(request, response, served, { socket }, restoreBody);
}

/**
 * The Content-Length bytes at the start of the connection (in `head` and what follows it); whatever
 * comes after them is the client's stream and goes back to the socket for the handler to read. The
 * body is a JSON one (exec start, attach): it is held to that limit and to the idle timeout.
 */
async function takeBody(request: IncomingMessage, socket: Duplex, head: Buffer, limits: RequestLimits): Promise<Buffer> {
  const length = Number(request.headers['content-length'] ?? 0) || 0;
  if (length > limits.jsonBodyBytes) throw bodyTooLarge(limits, 'json');
  const chunks = [head];
  let received = head.length;
  while (received < length) {
    const chunk = await nextChunk(socket, limits.idleTimeoutMs);
    if (chunk === null) break;
    chunks.push(chunk);
    received += chunk.length;
  }
  const whole = Buffer.concat(chunks, received);
  const rest = whole.subarray(length);
  if (rest.length > 0) socket.unshift(rest);
  return whole.subarray(0, length);
}

/** The next chunk of a paused socket; null once it has ended; a 408 when nothing comes for `idleMs`. */
async function nextChunk(socket: Duplex, idleMs: number): Promise<Buffer | null> {
  for (;;) {
    const chunk = socket.read() as Buffer | null;
    if (chunk !== null || socket.readableEnded || socket.destroyed) return chunk;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => finish(stalledError(idleMs)), idleMs);
      const wake = () => finish();
      function finish(error?: Error) {
        clearTimeout(timer);
        socket.off('readable', wake);
        socket.off('close', wake);
        if (error) reject(error);
        else resolve();
      }
      socket.on('readable', wake);
      socket.on('close', wake);
    });
  }
}

/** Errors the model or the HTTP layer meant: anything else that reaches an answer is a bug of ours. */
function isIntended(error: unknown): boolean {
  return error instanceof EngineError || error instanceof HttpError;
}

async function handle(request: IncomingMessage, response: ServerResponse, served: Served, upgrade?: UpgradedConnection, beforeRouting?: () => Promise<void>): Promise<void> {
  const { model, dialect, personality } = served;
  for (const [name, value] of Object.entries(IDENTITY_HEADERS)) response.setHeader(name, value);
  const target = request.url ?? '/';
  const queryStart = target.indexOf('?');
  const { version: requested, path } = splitVersionPrefix(queryStart < 0 ? target : target.slice(0, queryStart));
  let match: RouteMatch | undefined;
  try {
    const refusal = admitRequest(request, served.limits);
    if (refusal) throw refusal;
    await beforeRouting?.();
    match = ROUTES.match(request.method ?? 'GET', path);
    // dockerd answers an unknown route, or a known path under another method, with this 404.
    if (!match) return sendError(response, requested, 404, 'page not found', personality);
    const check = checkVersion(requested);
    if ('refusal' in check) return sendError(response, requested, 400, check.refusal, personality);
    const query = personality.query(`${match.route.method} ${match.route.path}`, check.served, parseRequestQuery(queryStart < 0 ? '' : target.slice(queryStart + 1)));
    await match.route.handle({ request, response, upgrade, version: check.served, params: match.params, query, model, dialect, personality });
  } catch (error) {
    if (!isIntended(error)) logBug(served.log, 'engine', request, error);
    // The rest of a refused body is never read: the connection closes after the answer.
    if (error instanceof RequestLimitError && !response.headersSent) response.setHeader('Connection', 'close');
    const listed = match && specStatuses(match.route.method, match.route.path);
    if (!response.headersSent) sendFailure(response, requested, error, personality, listed);
    else response.destroy();
  }
}
