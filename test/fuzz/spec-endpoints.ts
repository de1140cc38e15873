/**
 * The endpoints the fuzzer aims at, read from the spec inventory (fixtures/spec-inventory.json): each
 * endpoint's query parameters, filters, body fields, request headers and the status codes its row
 * lists. Which server answers follows the document: spec/1 and spec/2 the engine, spec/3 the token
 * service (`/token`) or the accounts API (`/api/v1.1/users/…`).
 */
import { readInventory } from '../../harness/coverage/spec-inventory.ts';

export type ServerName = 'engine' | 'token' | 'accounts';

/** How a body is sent: JSON, an urlencoded form (the token service), or a tar stream. */
export type BodyKind = 'json' | 'form' | 'tar';

export interface SpecEndpoint {
  /** `<doc>:<METHOD> <path>`, the inventory's endpoint id */
  id: string;
  server: ServerName;
  method: string;
  /** the path as the spec writes it, with `{name}` or `:name` placeholders */
  template: string;
  query: string[];
  /** the keys of the `filters` parameter (the inventory's `query:filters.<key>`) */
  filters: string[];
  /** body fields, nested ones dotted (`HostConfig.Binds`) */
  body: string[];
  bodyKind?: BodyKind;
  headers: string[];
  statuses: number[];
}

/** The inventory's names for a whole non-JSON body (`body:tar`) and for a whole JSON one (`body:service-spec`). */
const TAR_BODIES = new Set(['tar', 'archive', 'tarball']);
/** a whole JSON body the inventory names by kind, and the endpoint whose fields it has */
const WHOLE_JSON_BODIES: Record<string, string> = { 'service-spec': '2:POST /services/create' };

function serverOf(document: string, path: string): ServerName {
  if (document !== '3') return 'engine';
  return path.startsWith('/api/') ? 'accounts' : 'token';
}

export async function readSpecEndpoints(root: string): Promise<SpecEndpoint[]> {
  const endpoints = new Map<string, SpecEndpoint>();
  const wholeBodies = new Map<SpecEndpoint, string>();
  for (const { id } of await readInventory(root)) {
    const match = /^(\d):([A-Z]+) (\/\S*?)(?::(query|body|header|status):(.+))?$/.exec(id);
    if (!match) continue; // a version rule
    const [, document = '', method = '', template = '', kind, name = ''] = match;
    const key = `${document}:${method} ${template}`;
    const endpoint = endpoints.get(key) ?? { id: key, server: serverOf(document, template), method, template, query: [], filters: [], body: [], headers: [], statuses: [] };
    endpoints.set(key, endpoint);
    if (kind === 'query') {
      if (name.startsWith('filters.')) endpoint.filters.push(name.slice('filters.'.length));
      else endpoint.query.push(name);
    } else if (kind === 'body') {
      if (TAR_BODIES.has(name)) endpoint.bodyKind = 'tar';
      else if (WHOLE_JSON_BODIES[name] !== undefined) wholeBodies.set(endpoint, WHOLE_JSON_BODIES[name]);
      else endpoint.body.push(name);
      endpoint.bodyKind ??= endpoint.server === 'token' ? 'form' : 'json';
    } else if (kind === 'header') endpoint.headers.push(name);
    else if (kind === 'status') endpoint.statuses.push(Number(name));
  }
  // A query `filters` parameter whose keys the inventory lists is the `filters` map.
  for (const endpoint of endpoints.values()) {
    if (endpoint.filters.length > 0 && !endpoint.query.includes('filters')) endpoint.query.push('filters');
  }
  for (const [endpoint, source] of wholeBodies) endpoint.body.push(...(endpoints.get(source)?.body ?? []));
  return [...endpoints.values()];
}

/**
 * The spec lists only 500 for this endpoint's failures: its row names no 4xx, so a client mistake
 * may keep 500 there (with a message saying why). An endpoint whose row shows no status at all is
 * not one: the spec leaves it open, and a client mistake is the client's (400).
 */
export function listsOnly500(endpoint: Pick<SpecEndpoint, 'statuses'>): boolean {
  const failures = endpoint.statuses.filter((status) => status >= 400);
  return failures.length > 0 && failures.every((status) => status === 500);
}
