/**
 * The query parameters each endpoint's row of the spec defines (spec/1 §4.1, §4.2; spec/2 §4), keyed
 * like spec-statuses.ts, each from the version the spec gives it (the row's marker, or §9.4's version
 * history) and, for a removed one, up to its last version. The strict personality reads only these;
 * routes whose parameters the spec does not show (container update, and what only dockerd has) are
 * absent and keep every parameter given.
 */
import { appliesAt } from '../../../protocol/versions.ts';

/** A parameter the row defines: a name, or a name with the versions it applies at. */
type Defined = string | { name: string; since?: string; until?: string };

const ATTACH: Defined[] = ['logs', 'stream', 'stdin', 'stdout', 'stderr'];
const NONE: Defined[] = [];

const SPEC_QUERY_PARAMETERS: Readonly<Record<string, readonly Defined[]>> = {
  'GET /containers/json': ['all', 'limit', 'since', 'before', 'size', 'filters'],
  'POST /containers/create': ['name'],
  // §9.4: "1.21 … inspect size parameter"
  'GET /containers/{id*}/json': [{ name: 'size', since: '1.21' }],
  'GET /containers/{id*}/top': ['ps_args'],
  // the row marks details [1.25] (§9.4 says 1.23): strict takes the later
  'GET /containers/{id*}/logs': [{ name: 'details', since: '1.25' }, 'follow', 'stdout', 'stderr', { name: 'since', since: '1.19' }, 'timestamps', 'tail'],
  'GET /containers/{id*}/changes': NONE,
  'GET /containers/{id*}/export': NONE,
  'GET /containers/{id*}/stats': [{ name: 'stream', since: '1.19' }],
  'POST /containers/{id*}/resize': ['h', 'w'],
  'POST /containers/{id*}/start': [{ name: 'detachKeys', since: '1.25' }],
  'POST /containers/{id*}/stop': ['t'],
  'POST /containers/{id*}/restart': ['t'],
  'POST /containers/{id*}/kill': ['signal'],
  'POST /containers/{id*}/rename': ['name'],
  'POST /containers/{id*}/pause': NONE,
  'POST /containers/{id*}/unpause': NONE,
  'POST /containers/{id*}/attach': ATTACH,
  'GET /containers/{id*}/attach/ws': ATTACH,
  'POST /containers/{id*}/wait': NONE,
  'DELETE /containers/{id*}': ['v', 'force'],
  'POST /containers/{id*}/copy': NONE,
  'HEAD /containers/{id*}/archive': ['path'],
  'GET /containers/{id*}/archive': ['path'],
  'PUT /containers/{id*}/archive': ['path', 'noOverwriteDirNonDir'],
  'POST /containers/{id*}/exec': NONE,
  'POST /exec/{id}/start': NONE,
  'POST /exec/{id}/resize': ['h', 'w'],
  'GET /exec/{id}/json': NONE,
  'GET /images/json': ['all', 'filters', 'filter', 'digests'],
  // the build file's parameter is named by the dialect (DESIGN.md: Buildfile or Dockerfile)
  'POST /build': ['buildfile', 'dockerfile', 't', 'remote', 'q', 'nocache', 'pull', 'rm', 'forcerm', 'memory', 'memswap', 'cpushares', 'cpusetcpus',
    { name: 'cpuperiod', since: '1.19' }, { name: 'cpuquota', since: '1.19' }],
  'POST /images/create': ['fromImage', 'fromSrc', 'repo', 'tag'],
  'GET /images/{name*}/json': NONE,
  'GET /images/{name*}/history': NONE,
  'POST /images/{name*}/push': ['tag'],
  'POST /images/{name*}/tag': ['repo', 'tag', { name: 'force', until: '1.23' }],
  'DELETE /images/{name*}': ['force', 'noprune'],
  'GET /images/search': ['term', 'limit', 'filters'],
  'GET /images/{name*}/get': NONE,
  'GET /images/get': ['names'],
  'POST /images/load': ['quiet'],
  'POST /commit': ['container', 'repo', 'tag', 'comment', 'author', 'pause', 'changes'],
  'POST /auth': NONE,
  'GET /info': NONE,
  'GET /version': NONE,
  'GET /_ping': NONE,
  'GET /events': ['since', 'until', 'filters'],
  'GET /volumes': ['filters'],
  'POST /volumes/create': NONE,
  'GET /volumes/{name}': NONE,
  'DELETE /volumes/{name}': NONE,
  'GET /networks': ['filters'],
  'GET /networks/{id}': NONE,
  'POST /networks/create': NONE,
  'POST /networks/{id}/connect': NONE,
  'POST /networks/{id}/disconnect': NONE,
  'DELETE /networks/{id}': NONE,
  'GET /plugins': NONE,
  'POST /plugins/pull': ['name'],
  'POST /services/{id}/update': ['version'],
  'GET /services/{id}': NONE,
  'DELETE /services/{id}': NONE,
  'GET /tasks': ['filters'],
  'GET /tasks/{id}': NONE,
};

/** The routes the table has (a test holds them to the server's routes). */
export const SPEC_QUERY_ROUTES: readonly string[] = Object.keys(SPEC_QUERY_PARAMETERS);

/** The names of the query parameters the spec defines for a route (`GET /containers/{id*}/json`) at a version; undefined where it shows none. */
export function specQueryParameters(route: string, version: string): string[] | undefined {
  return SPEC_QUERY_PARAMETERS[route]
    ?.filter((defined) => typeof defined === 'string' || appliesAt(version, defined.since ?? '1.18', defined.until))
    .map((defined) => (typeof defined === 'string' ? defined : defined.name));
}
