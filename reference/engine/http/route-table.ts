/**
 * One table of routes: method and path pattern to handler. `{id}` matches one path segment, `{name*}`
 * one or more (image names have slashes; dockerd matches its names this way too). The first route
 * that matches wins, so fixed paths go before patterns that would swallow them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApiVersion } from '../../../protocol/versions.ts';
import type { Dialect } from '../../../protocol/dialect.ts';
import type { EngineModel } from '../model/engine-model.ts';
import { HttpError } from '../../http-error.ts';
import type { Personality } from './personality.ts';

/** A request that came with an Upgrade header: its connection is the handler's to take over. */
export interface UpgradedConnection {
  /** what follows the request on the connection (its body already read into the request) */
  socket: Duplex;
}

export interface RouteContext {
  request: IncomingMessage;
  /** on an upgraded connection, an answer written on its socket (the handler's to use if it does not hijack) */
  response: ServerResponse;
  upgrade?: UpgradedConnection;
  version: ApiVersion;
  params: Record<string, string>;
  query: URLSearchParams;
  model: EngineModel;
  dialect: Dialect;
  /** how the answer takes the choices the spec leaves open */
  personality: Personality;
}

export interface Route {
  method: string;
  path: string;
  handle: (context: RouteContext) => void | Promise<void>;
}

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  names: string[];
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

export class RouteTable {
  private readonly compiled: CompiledRoute[];

  constructor(routes: Route[]) {
    this.compiled = routes.map((route) => {
      const names: string[] = [];
      const source = route.path.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)(\*?)\}/g, (_, name: string, greedy: string) => {
        names.push(name);
        return greedy ? '(.+)' : '([^/]+)';
      });
      return { route, pattern: new RegExp(`^${source}$`), names };
    });
  }

  /** The route for a method and a (still percent-encoded) path; a known path with another method does not match. */
  match(method: string, path: string): RouteMatch | undefined {
    for (const { route, pattern, names } of this.compiled) {
      if (route.method !== method) continue;
      const found = pattern.exec(path);
      if (!found) continue;
      return { route, params: Object.fromEntries(names.map((name, index) => [name, decodeSegment(found[index + 1] ?? '')])) };
    }
    return undefined;
  }
}

function decodeSegment(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new HttpError(400, `invalid URL escape in ${JSON.stringify(text)}`);
  }
}
