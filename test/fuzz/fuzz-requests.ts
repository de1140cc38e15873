/**
 * Requests a hostile client sends, generated from the spec inventory: each endpoint with its path
 * parameters (names the run created, ids it does not know, path tricks), its query parameters and
 * filters, a body of its fields (a valid one with some fields of the wrong type or at the extremes,
 * recased names, junk objects, malformed JSON, tars), its request headers, at odd API versions; plus
 * odd paths and methods on each server. Names that only exist at run time (an exec id, a task id)
 * are placeholders the runner fills in.
 */
import fc from 'fast-check';
import { API_VERSIONS } from '../../protocol/versions.ts';
import { badJsonText, filtersValue, jsonValue, oddString, percentEncode, queryValue, recase, setField, tarBody } from './fuzz-values.ts';
import type { ServerName, SpecEndpoint } from './spec-endpoints.ts';

export interface FuzzRequest {
  server: ServerName;
  /** the inventory's endpoint id, or `odd` for a path no endpoint has */
  endpoint: string;
  method: string;
  /** percent-encoded, with the runner's placeholders (`{{exec}}`, `{{task}}`) */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** send only this many bytes of the body, then nothing: the server's idle timeout must end it */
  stallAfter?: number;
}

/** The objects the runner creates before fuzzing, by name, so paths can name things that exist. */
export const SEEDED = {
  running: 'fz-running',
  stopped: 'fz-stopped',
  network: 'fz-net',
  volume: 'fz-vol',
  service: 'fz-svc',
  image: 'busybox:latest',
  exec: '{{exec}}',
  task: '{{task}}',
} as const;

/** Names creates draw from, so concurrent creates collide and later requests find what they made. */
const SHARED_NAMES = ['fz-a', 'fz-b', 'fz-c'];
const USERS = ['alice', 'bob', 'nobody', 'Alice'];
const PASSWORDS: Record<string, string> = { alice: 'shipshape-alice-Tq7vRw2pLx', bob: 'shipshape-bob-Hm4zKc9sNd' };

/** Names of the kind a path wants (a container's path gets container names), so requests get past the lookup. */
const NAMES_BY_KIND: Array<[RegExp, string[]]> = [
  [/^\/containers\//, [SEEDED.running, SEEDED.stopped, ...SHARED_NAMES]],
  [/^\/exec\//, [SEEDED.exec]],
  [/^\/networks\//, [SEEDED.network, 'bridge', 'host', 'none', ...SHARED_NAMES]],
  [/^\/volumes\//, [SEEDED.volume, ...SHARED_NAMES]],
  [/^\/images\//, [SEEDED.image, 'busybox', 'e8547de885d1', 'sha256:e8547de885d1ade022e6899276254609fd2a0d55b6fd6ac41924e3821a837abc', ...SHARED_NAMES]],
  [/^\/services\//, [SEEDED.service, ...SHARED_NAMES]],
  [/^\/tasks\//, [SEEDED.task]],
];

function pathSegment(template: string): fc.Arbitrary<string> {
  const names = NAMES_BY_KIND.find(([pattern]) => pattern.test(template))?.[1] ?? Object.values(SEEDED);
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...names) },
    { weight: 1, arbitrary: fc.constantFrom(...Object.values(SEEDED), 'missing') },
    { weight: 2, arbitrary: oddString.map((text) => percentEncode(text)) },
    { weight: 1, arbitrary: fc.constantFrom('..', '.', '%2e%2e', '%2F', '%ZZ', '%', 'a/b/c', '..%2F..%2Fetc', '%00', 'library/busybox', 'localhost:5000/x') },
  );
}

const versionPrefix = fc.oneof(
  { weight: 4, arbitrary: fc.constant('/v1.25') },
  { weight: 3, arbitrary: fc.constantFrom(...API_VERSIONS).map((version) => `/v${version}`) },
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom('/v1.99', '/v999999999999999999999.1', '/v1.999999999999999999999', '/v1.', '/v.1', '/v1.25.1', '/v01.025', '/v-1.2', '/v1e3.1', '/v0.0', '/v1.17', '/V1.25', '/v1.24/v1.25') },
);

const base64 = (text: string) => Buffer.from(text).toString('base64');
const basicOf = (user: string, password: string) => `Basic ${base64(`${user}:${password}`)}`;

/**
 * Credentials: mostly refused before any password is checked. A known user's password, right or wrong,
 * costs a KDF run, and wrong ones for one name are answered later and later (up to 2 s): rarely.
 */
const authorization = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('', 'Basic', 'Basic !!!', 'Bearer', 'Bearer x.y.z', 'Bearer eyJhbGciOiJub25lIn0.eyJhY2Nlc3MiOm51bGx9.', `Basic ${base64('alice')}`, 'Digest a=b', 'basic  ') },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...USERS), oddString).map(([user, password]) => basicOf(user, password)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('alice', 'bob'), fc.constantFrom('', 'garbage', ':')).map(([user, tail]) => `${basicOf(user, PASSWORDS[user] ?? '')}${tail}`) },
);

const registryAuth = fc.oneof(
  jsonValue.map((value) => base64(JSON.stringify(value) ?? '')),
  fc.record({ username: oddString, password: oddString, serveraddress: fc.constantFrom('127.0.0.1:1', 'https://user:secret@127.0.0.1:1/', '', 'localhost'), identitytoken: oddString }).map((auth) => Buffer.from(JSON.stringify(auth)).toString('base64url')),
  oddString,
);

const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/x-tar', 'application/tar', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', '', 'application/json;;', '*/*');

function headerValue(name: string): fc.Arbitrary<string> {
  const lower = name.toLowerCase();
  if (lower === 'authorization') return authorization;
  if (lower === 'x-registry-auth' || lower === 'x-registry-config') return registryAuth;
  if (lower === 'content-type') return contentType;
  return oddString;
}

/** Values for fields the inventory lists only at the top, as the API nests them (where dockerd's findings were). */
const NESTED: Record<string, fc.Arbitrary<unknown>> = {
  'Mode.Replicated.Replicas': fc.constantFrom(0, 1, 3, -1, 1.5, '2', 20_000, 18446744073709551616, 1e308, null),
  'IPAM.Config': fc.array(fc.record({ Subnet: fc.constantFrom('10.9.0.0/16', '10.9.0.1/32', '10.9.0.0/33', '::/0', 'x', '', '300.1.1.1/8'), Gateway: fc.constantFrom('10.9.0.1', 'x', '') }, { requiredKeys: [] }), { maxLength: 2 }),
  'HostConfig.PortBindings': fc.dictionary(fc.constantFrom('80/tcp', '80', 'x/udp', '70000/tcp'), fc.array(fc.record({ HostPort: fc.constantFrom('8080', 8080, '99999', '', 'x'), HostIp: fc.constantFrom('', '0.0.0.0', 'x') }, { requiredKeys: [] }), { maxLength: 2 }), { maxKeys: 2 }),
  'HostConfig.Binds': fc.array(fc.constantFrom('/tmp:/x', 'vol:/data', 'relative:/x', '/a:b', ':', '/a:/b:rw,zz', 'fz-vol:/v:ro', ''), { maxLength: 2 }),
  Volumes: fc.dictionary(fc.constantFrom('/data', 'relative', '', '/a:/b'), fc.constant({}), { maxKeys: 2 }),
  'HostConfig.LxcConf': fc.constantFrom('x', [{ Key: 'a', Value: 'b' }], { a: 'b' }),
  'HostConfig.Privileged': fc.constantFrom('yes', 1, true, null),
  'HostConfig.CpuShares': fc.constantFrom(1e308, -1, 2 ** 63, '512', 1.5),
  Labels: fc.integer({ min: 1_000, max: 200_000 }).map((length) => ({ big: 'l'.repeat(length) })),
};

/** The body each endpoint accepts when well formed, which the fuzzer then spoils a field at a time. */
function validBody(endpoint: SpecEndpoint): Record<string, unknown> {
  const path = endpoint.template;
  if (path === '/containers/create') return { Image: 'busybox', Cmd: ['true'] };
  if (path === '/networks/create') return { Name: 'fz-a' };
  if (path === '/volumes/create') return { Name: 'fz-a' };
  if (path.startsWith('/services/')) return { Name: 'fz-a', TaskTemplate: { ContainerSpec: { Image: 'busybox', Command: ['sleep', '1000'] } } };
  if (path.endsWith('/exec')) return { Cmd: ['true'], AttachStdout: true };
  if (path.endsWith('/connect') || path.endsWith('/disconnect')) return { Container: 'fz-stopped' };
  if (path === '/auth') return { username: 'alice', password: 'x', serveraddress: '127.0.0.1:1' };
  if (path.endsWith('/emails/')) return { email: 'fz@example.org' };
  return {};
}

function jsonBody(endpoint: SpecEndpoint): fc.Arbitrary<Buffer> {
  const topOf = (field: string) => field.split('.')[0];
  const fieldNames = [...new Set([...endpoint.body, ...Object.keys(NESTED).filter((field) => endpoint.body.some((listed) => topOf(listed) === topOf(field)))])];
  const spoiled = fc
    .array(fc.tuple(fc.constantFrom(...(fieldNames.length > 0 ? fieldNames : ['Bogus'])), fc.nat({ max: 4 })), { maxLength: 4 })
    .chain((fields) => fc.tuple(...fields.map(([field, how]) => (NESTED[field] !== undefined && how < 3 ? NESTED[field] : jsonValue))).map((values) => ({ fields, values })))
    .map(({ fields, values }) => {
      const body = validBody(endpoint);
      fields.forEach(([field, how], index) => {
        // the top-level name recased as a Go client might send it (how 3: lower case, 4: upper case)
        const [head = '', ...rest] = field.split('.');
        setField(body, [recase(head, Math.max(0, how - 2)), ...rest].join('.'), values[index]);
      });
      return Buffer.from(JSON.stringify(body));
    });
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined).map(() => Buffer.from(JSON.stringify(validBody(endpoint)))) },
    { weight: 6, arbitrary: spoiled },
    { weight: 1, arbitrary: fc.dictionary(oddString, jsonValue, { maxKeys: 5 }).map((body) => Buffer.from(JSON.stringify(body))) },
    { weight: 2, arbitrary: badJsonText.map((text) => Buffer.from(text)) },
  );
}

const GRANT_TYPES = ['password', 'refresh_token', 'authorization_code', 'client_credentials', ''];
const SCOPES = ['repository:alice/app:pull,push', 'repository:alice/../bob/app:push', 'repository:alice/*:pull', 'repository:bob/app:*', 'registry:catalog:*', 'repository::', 'repository:a:b:c:d', 'repository:ALICE/app:pull'];

function formBody(endpoint: SpecEndpoint): fc.Arbitrary<Buffer> {
  const fieldValue = (field: string): fc.Arbitrary<string> => {
    if (field === 'grant_type') return fc.oneof(fc.constantFrom(...GRANT_TYPES), oddString);
    if (field === 'scope') return fc.oneof(fc.constantFrom(...SCOPES), oddString);
    if (field === 'username') return fc.oneof(fc.constantFrom(...USERS), oddString);
    if (field === 'service') return fc.constantFrom('shipshape-registry', '', 'other');
    return oddString;
  };
  const form = fc.tuple(...endpoint.body.map((field) => fc.option(fieldValue(field), { nil: undefined }))).map((values) => {
    const params = new URLSearchParams();
    endpoint.body.forEach((field, index) => {
      const value = values[index];
      // a password grant with a real password runs the KDF: only with a username from the users file, and rarely
      if (value !== undefined && field !== 'password') params.append(field, value);
    });
    return params;
  });
  return fc.oneof(
    { weight: 8, arbitrary: form.map((params) => Buffer.from(params.toString())) },
    { weight: 1, arbitrary: form.map((params) => Buffer.from(`${params.toString()}&password=${percentEncode(PASSWORDS.alice ?? '')}`)) },
    { weight: 1, arbitrary: fc.constantFrom('%', '&&&', '=', 'a=%ZZ', 'grant_type=password&grant_type=refresh_token', 'x'.repeat(70_000)).map((text) => Buffer.from(text)) },
  );
}

function bodyOf(endpoint: SpecEndpoint): fc.Arbitrary<Buffer | undefined> {
  if (endpoint.bodyKind === 'tar') return tarBody;
  if (endpoint.bodyKind === 'form') return formBody(endpoint);
  if (endpoint.bodyKind === 'json') return jsonBody(endpoint);
  // an endpoint without a body: mostly none, sometimes junk a client sends anyway
  return fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: badJsonText.map((text) => Buffer.from(text)) });
}

/** Where the reference fetches what a parameter names: only values that stay on this machine. */
const FETCHED_PARAMETERS: Record<string, fc.Arbitrary<string>> = {
  fromSrc: fc.constantFrom('-', '', 'http:', 'http://', 'ftp://127.0.0.1/x', '127.0.0.1:1/x.tar', 'http://127.0.0.1:1/x.tar', 'http://[::1', 'file:///etc/passwd'),
  remote: fc.constantFrom('', 'http:', '127.0.0.1:1/context.tar', 'http://127.0.0.1:1/x', 'git://127.0.0.1:1/x.git', 'github.com', '-'),
};

function parameterValue(endpoint: SpecEndpoint, name: string): fc.Arbitrary<string> {
  if (name === 'filters') return filtersValue(endpoint.filters);
  const fetched = FETCHED_PARAMETERS[name];
  if (fetched) return fetched;
  if (name === 'path' || name === 'Resource') return fc.oneof({ weight: 3, arbitrary: fc.constantFrom('/', '/etc', '/etc/passwd', '/tmp', '/tmp/', '/bin/sh', '/proc/self', 'etc', '/..', '/tmp/../../', '/nonexistent') }, { weight: 2, arbitrary: queryValue });
  if (['name', 'repo', 'tag', 't', 'container'].includes(name)) return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...SHARED_NAMES, SEEDED.running, 'fz-a:tag', 'fz/A', 'a'.repeat(300)) }, { weight: 2, arbitrary: queryValue });
  return queryValue;
}

/** Each listed parameter at most once, mostly; now and then one of them repeated with other values. */
function queryOf(endpoint: SpecEndpoint): fc.Arbitrary<string> {
  if (endpoint.query.length === 0) return fc.constant('');
  const pair = (name: string) => parameterValue(endpoint, name).map((text) => `${percentEncode(name)}=${percentEncode(text)}`);
  const once = fc.subarray(endpoint.query, { maxLength: Math.min(4, endpoint.query.length) }).chain((names) => fc.tuple(...names.map(pair)));
  const repeated = fc.array(fc.constantFrom(...endpoint.query).chain(pair), { maxLength: 4 });
  return fc.oneof({ weight: 4, arbitrary: once }, { weight: 1, arbitrary: repeated }).map((parts) => (parts.length === 0 ? '' : `?${parts.join('&')}`));
}

function pathOf(endpoint: SpecEndpoint): fc.Arbitrary<string> {
  const parts = endpoint.template.split(/(\{[^}]+\}|:username)/);
  const placeholders = parts.filter((part) => part.startsWith('{') || part === ':username');
  const users = fc.oneof(fc.constantFrom(...USERS), oddString.map((text) => percentEncode(text)));
  return fc.tuple(...placeholders.map((part) => (part === ':username' ? users : pathSegment(endpoint.template)))).map((values) => {
    let next = 0;
    return parts.map((part) => (part.startsWith('{') || part === ':username' ? values[next++] : part)).join('');
  });
}

function endpointRequest(endpoint: SpecEndpoint): fc.Arbitrary<FuzzRequest> {
  const headerNames = endpoint.headers.filter((name) => !name.startsWith('X-Engine-') && name !== 'Upgrade');
  const upgrade = endpoint.headers.includes('Upgrade') ? fc.boolean() : fc.constant(false);
  return fc
    .record({
      prefix: endpoint.server === 'engine' ? versionPrefix : fc.constant(''),
      path: pathOf(endpoint),
      query: queryOf(endpoint),
      body: bodyOf(endpoint),
      headers: fc.tuple(...headerNames.map((name) => fc.option(headerValue(name), { nil: undefined }))),
      upgrade,
    })
    .map(({ prefix, path, query, body, headers, upgrade: hijack }) => ({
      server: endpoint.server,
      endpoint: endpoint.id,
      method: endpoint.method,
      path: `${prefix}${path}${query}`,
      headers: {
        ...Object.fromEntries(headerNames.flatMap((name, index) => (headers[index] === undefined ? [] : [[name, headers[index]]]))),
        ...(body !== undefined && endpoint.bodyKind === 'json' && !headerNames.some((name) => name.toLowerCase() === 'content-type') && { 'Content-Type': 'application/json' }),
        ...(endpoint.bodyKind === 'form' && headers.every((value) => value === undefined) && { 'Content-Type': 'application/x-www-form-urlencoded' }),
        ...(hijack && { Connection: 'Upgrade', Upgrade: 'tcp' }),
      },
      ...(body !== undefined && { body }),
    }));
}

const ODD_PATHS = ['/', '//', '///', '/v1.25', '/v1.25/', '/v1.25//_ping', '/%', '/%2e%2e/%2e%2e/etc/passwd', '/v1.25/containers/%ZZ/json', '/token/', '/api/v1.1/users//', '/api/v1.1/users/alice', '/api/v1.1/users/%/', '/revoke', '/_ping?a=%', '/v999999999999999999999.1/_ping', '/v1.25/_ping/'];

const oddRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    server: fc.constantFrom<ServerName>('engine', 'engine', 'token', 'accounts'),
    method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND'),
    path: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...ODD_PATHS) },
      { weight: 1, arbitrary: fc.integer({ min: 2_000, max: 60_000 }).map((length) => `/v1.25/containers/${'a'.repeat(length)}/json`) },
      { weight: 1, arbitrary: fc.integer({ min: 100, max: 3_000 }).map((count) => `/v1.25/containers/json?${'all=1&'.repeat(count)}`) },
      { weight: 2, arbitrary: oddString.map((text) => `/${percentEncode(text)}`) },
    ),
    body: fc.option(badJsonText.map((text) => Buffer.from(text)), { nil: undefined }),
  })
  .map(({ server, method, path, body }) => ({ server, endpoint: 'odd', method, path, headers: {}, ...(body !== undefined && method !== 'GET' && method !== 'HEAD' && { body }) }));

/** Bodies past the size limits (JSON 4 MiB, forms 1 MiB): a 413, not the process's memory. */
const oversizedRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    target: fc.constantFrom(
      { server: 'engine' as const, endpoint: '1:POST /containers/create', path: '/v1.25/containers/create', type: 'application/json' },
      { server: 'engine' as const, endpoint: '2:POST /networks/create', path: '/v1.25/networks/create', type: 'application/json' },
      { server: 'token' as const, endpoint: '3:POST /token', path: '/token', type: 'application/x-www-form-urlencoded' },
      { server: 'accounts' as const, endpoint: '3:PATCH /api/v1.1/users/:username/', path: '/api/v1.1/users/alice/', type: 'application/json' },
    ),
    megabytes: fc.integer({ min: 1, max: 6 }),
  })
  .map(({ target, megabytes }) => ({
    server: target.server,
    endpoint: target.endpoint,
    method: target.endpoint.includes('PATCH') ? 'PATCH' : 'POST',
    path: target.path,
    headers: { 'Content-Type': target.type },
    body: Buffer.from(target.type === 'application/json' ? JSON.stringify({ Image: 'busybox', Name: 'fz-big', Labels: { big: 'b'.repeat(megabytes * 1024 * 1024) } }) : `grant_type=password&scope=${'s'.repeat(megabytes * 1024 * 1024)}`),
  }));

/** Uploads that stop halfway: a JSON body, a tar, a form, a hijacked attach's stdin. */
const stalledRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    target: fc.constantFrom<Omit<FuzzRequest, 'body' | 'stallAfter'>>(
      { server: 'engine', endpoint: '1:POST /containers/create', method: 'POST', path: '/v1.25/containers/create', headers: { 'Content-Type': 'application/json' } },
      { server: 'engine', endpoint: '1:PUT /containers/{id_or_name}/archive', method: 'PUT', path: `/v1.25/containers/${SEEDED.stopped}/archive?path=/tmp`, headers: { 'Content-Type': 'application/x-tar' } },
      { server: 'engine', endpoint: '2:POST /build', method: 'POST', path: '/v1.25/build', headers: { 'Content-Type': 'application/x-tar' } },
      { server: 'engine', endpoint: '1:POST /containers/{id_or_name}/attach', method: 'POST', path: `/v1.25/containers/${SEEDED.running}/attach?stream=1&stdin=1`, headers: { Connection: 'Upgrade', Upgrade: 'tcp' } },
      { server: 'token', endpoint: '3:POST /token', method: 'POST', path: '/token', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
    ),
    sent: fc.integer({ min: 0, max: 2_000 }),
  })
  .map(({ target, sent }) => ({ ...target, body: Buffer.alloc(4_096, 'a'), stallAfter: sent }));

/**
 * Any request: an endpoint of the inventory (engine endpoints far more often: the token service and
 * accounts API pay a KDF run for each password they check), or an odd path or method.
 */
export function fuzzRequest(endpoints: readonly SpecEndpoint[]): fc.Arbitrary<FuzzRequest> {
  const engine = endpoints.filter((endpoint) => endpoint.server === 'engine');
  const others = endpoints.filter((endpoint) => endpoint.server !== 'engine');
  return fc.oneof(
    { weight: 900, arbitrary: fc.oneof(...engine.map(endpointRequest)) },
    { weight: 30, arbitrary: fc.oneof(...others.map(endpointRequest)) },
    { weight: 70, arbitrary: oddRequest },
    { weight: 2, arbitrary: oversizedRequest },
    { weight: 2, arbitrary: stalledRequest },
  );
}
