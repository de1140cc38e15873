/**
 * The engine API over node:http: finds the route, checks the requested version, hands the handler a
 * clean context and turns whatever it throws into the version's error body.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Dialect } from '../../../harness/dialect.ts';
import type { EngineModel } from '../model/engine-model.ts';
import { containerRoutes } from './container-routes.ts';
import { sendError, sendFailure } from './error-responses.ts';
import { eventRoutes } from './event-routes.ts';
import { imageRoutes } from './image-routes.ts';
import { RouteTable } from './route-table.ts';
import { IDENTITY_HEADERS } from './server-identity.ts';
import { systemRoutes } from './system-routes.ts';
import { checkVersion, splitVersionPrefix } from './version-prefix.ts';

export interface EngineServerOptions {
  model: EngineModel;
  /** vendor names (raw-stream content type, path-stat header, root directory field) */
  dialect: Dialect;
}

const ROUTES = new RouteTable([...systemRoutes, ...eventRoutes, ...containerRoutes, ...imageRoutes]);

export function createEngineServer({ model, dialect }: EngineServerOptions): Server {
  return createServer((request, response) => {
    void handle(request, response, model, dialect);
  });
}

async function handle(request: IncomingMessage, response: ServerResponse, model: EngineModel, dialect: Dialect): Promise<void> {
  for (const [name, value] of Object.entries(IDENTITY_HEADERS)) response.setHeader(name, value);
  const target = request.url ?? '/';
  const queryStart = target.indexOf('?');
  const { version: requested, path } = splitVersionPrefix(queryStart < 0 ? target : target.slice(0, queryStart));
  const query = new URLSearchParams(queryStart < 0 ? '' : target.slice(queryStart + 1));
  try {
    const match = ROUTES.match(request.method ?? 'GET', path);
    // dockerd answers an unknown route, or a known path under another method, with this 404.
    if (!match) return sendError(response, requested, 404, 'page not found');
    const check = checkVersion(requested);
    if ('refusal' in check) return sendError(response, requested, 400, check.refusal);
    await match.route.handle({ request, response, version: check.served, params: match.params, query, model, dialect });
  } catch (error) {
    if (!response.headersSent) sendFailure(response, requested, error);
    else response.destroy(error as Error);
  }
}
