/**
 * How containers are named and found: names at create and rename, the forms of `{id_or_name}`
 * (spec/1 §4.3.1), and 404 for an unknown container on every container endpoint.
 */
import WebSocket from 'ws';
import { check, type CheckContext } from '../../harness/check.ts';
import { ApiResponse } from '../../harness/client/api-response.ts';
import { encodeQuery } from '../../harness/client/engine-client.ts';
import { appliesAt, OLDEST_VERSION } from '../../protocol/versions.ts';
import { createContainer, createdContainer } from '../container-steps.ts';
import { STREAM_TIMEOUT_MS } from '../stream-reading.ts';
import { buildTar } from '../tar-files.ts';

/** Creates a container of `true` with this name at the version under test. */
function createNamed(context: CheckContext, name: string): Promise<ApiResponse> {
  return createContainer(context, { Image: context.session.fixtureImage, Cmd: ['true'] }, name);
}

async function inspectedName({ engine, expect }: CheckContext, idOrName: string): Promise<string> {
  const res = await engine.get(`/containers/${idOrName}/json`);
  expect(res.status, `GET /containers/${idOrName}/json status`).toBe(200);
  return res.json<{ Name: string }>().Name;
}

check('containers.create.taken-name', {
  title: 'creating a container with a name already in use answers 409',
  spec: '1 §4.1, §7.2',
  quote: ['| POST /containers/create | name (must match `/?[a-zA-Z0-9_-]+`) | creation body (2.3) | 201 {Id, Warnings} | 201, 400, 404, 406, 409, 500 |', '409 conflict'],
  since: '1.18',
  tags: ['error'],
  covers: ['1:POST /containers/create:query:name', '1:POST /containers/create:status:409'],
}, async (context) => {
  const name = context.make.uniqueName('taken');
  await createdContainer(context, {}, name);
  const res = await createNamed(context, name);
  context.expect(res.status, 'status').toBe(409);
});

check('containers.create.invalid-name', {
  title: 'creating a container with a name outside /?[a-zA-Z0-9_-]+ answers 400',
  spec: '1 §8, §4.1, §7.2',
  quote: ['| Container name pattern | `/?[a-zA-Z0-9_-]+` |', '| POST /containers/create | name (must match `/?[a-zA-Z0-9_-]+`) | creation body (2.3) | 201 {Id, Warnings} | 201, 400, 404, 406, 409, 500 |', '400 bad parameter'],
  since: '1.18',
  tags: ['error'],
  covers: ['1:POST /containers/create:query:name', '1:POST /containers/create:status:400'],
}, async (context) => {
  // Characters that both the spec's pattern and dockerd's stricter one refuse.
  const base = context.make.uniqueName('bad');
  const names = [`${base}!`, `${base} x`, `${base}/x`];
  const statuses: Record<string, number> = {};
  for (const name of names) statuses[name] = (await createNamed(context, name)).status;
  context.expect(statuses, `status per name: ${JSON.stringify(statuses)}`).toEqual(Object.fromEntries(names.map((name) => [name, 400])));
});

check('containers.create.name-leading-slash', {
  title: 'a name given with the leading slash the pattern allows (`/name`) is taken: 201',
  spec: '1 §8, §4.1',
  quote: ['| Container name pattern | `/?[a-zA-Z0-9_-]+` |', '| POST /containers/create | name (must match `/?[a-zA-Z0-9_-]+`) | creation body (2.3) | 201 {Id, Warnings} | 201, 400, 404, 406, 409, 500 |'],
  since: '1.18',
  tags: ['state'],
  covers: ['1:POST /containers/create:query:name', '1:POST /containers/create:status:201'],
}, async (context) => {
  // Which name the container then carries (with the slash or without) the spec does not say: only that it is taken.
  const res = await createNamed(context, `/${context.make.uniqueName('slash')}`);
  context.expect(res.status, `status: ${res.describe()}`).toBe(201);
});

check('containers.rename.new-name', {
  title: 'rename answers 204; the container is then found under its new name (inspect Name "/<new>") and not the old one',
  spec: '1 §4.1, §2.2, §4.3, §7.2',
  quote: ['| POST /containers/{id_or_name}/rename | name (new name) | none | 204 | 204, 404, 409 (name already assigned), 500 |', '| GET /containers/{id_or_name}/json | size (boolean, default false) | none | 200 inspect object | 200, 404, 500 |', 'Name (string starting with `/`)', 'Identifiers in paths may be a full id, a short id prefix or a name where `id_or_name` is written.', '404 no such container'],
  since: '1.18',
  tags: ['state'],
  covers: ['1:POST /containers/{id_or_name}/rename', '1:POST /containers/{id_or_name}/rename:query:name', '1:POST /containers/{id_or_name}/rename:status:204'],
}, async (context) => {
  const oldName = context.make.uniqueName('old');
  const newName = context.make.uniqueName('new');
  const id = await createdContainer(context, {}, oldName);
  const res = await context.engine.post(`/containers/${id}/rename`, { query: { name: newName } });
  context.expect(res.status, 'status').toBe(204);
  context.expect(await inspectedName(context, newName), 'Name, inspected by the new name').toBe(`/${newName}`);
  const byOldName = await context.engine.get(`/containers/${oldName}/json`);
  context.expect(byOldName.status, 'GET by the old name status').toBe(404);
});

check('containers.rename.taken-name', {
  title: 'renaming a container to a name another container has answers 409 and keeps its name',
  spec: '1 §4.1, §2.2, §4.3',
  quote: ['| POST /containers/{id_or_name}/rename | name (new name) | none | 204 | 204, 404, 409 (name already assigned), 500 |', '| GET /containers/{id_or_name}/json | size (boolean, default false) | none | 200 inspect object | 200, 404, 500 |', 'Name (string starting with `/`)', 'Identifiers in paths may be a full id, a short id prefix or a name where `id_or_name` is written.'],
  since: '1.18',
  tags: ['error'],
  covers: ['1:POST /containers/{id_or_name}/rename:query:name', '1:POST /containers/{id_or_name}/rename:status:409'],
}, async (context) => {
  const name = context.make.uniqueName('mine');
  const takenName = context.make.uniqueName('taken');
  const id = await createdContainer(context, {}, name);
  await createdContainer(context, {}, takenName);
  const res = await context.engine.post(`/containers/${id}/rename`, { query: { name: takenName } });
  context.expect(res.status, 'status').toBe(409);
  context.expect(await inspectedName(context, id), 'Name after the refused rename').toBe(`/${name}`);
});

check('containers.inspect.id-forms', {
  title: 'a container is found by its full id, a unique id prefix and its name',
  spec: '1 §4.3, §4.1, §2.2',
  quote: ['Identifiers in paths may be a full id, a short id prefix or a name where `id_or_name` is written.', '| GET /containers/{id_or_name}/json | size (boolean, default false) | none | 200 inspect object | 200, 404, 500 |', 'LogPath, Id, Image (image id)'],
  since: '1.18',
  tags: ['state'],
  covers: ['1:GET /containers/{id_or_name}/json', '1:GET /containers/{id_or_name}/json:status:200'],
}, async (context) => {
  const name = context.make.uniqueName('forms');
  const id = await createdContainer(context, {}, name);
  // 12 hex digits, the short id clients show: unique among any realistic number of containers.
  const forms = { 'full id': id, 'id prefix': id.slice(0, 12), name };
  const found: Record<string, unknown> = {};
  for (const [form, reference] of Object.entries(forms)) {
    const res = await context.engine.get(`/containers/${reference}/json`);
    found[form] = res.status === 200 ? res.json<{ Id: string }>().Id : `status ${res.status}`;
  }
  context.expect(found, `the Id inspected by each form: ${JSON.stringify(found)}`).toEqual({ 'full id': id, 'id prefix': id, name: id });
});

check('containers.inspect.ambiguous-prefix', {
  title: 'an id prefix that several containers share is an error, not one of them',
  spec: '1 §4.3, §7.1',
  // §4.3.1 allows a short id prefix and says nothing of one that several containers share.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['error'],
  covers: ['1:GET /containers/{id_or_name}/json'],
}, async (context) => {
  // Ids are random hex: among 17 containers two share a first digit, and usually among far fewer.
  // That one-digit prefix is ambiguous whatever other containers the target holds.
  const firstDigits = new Map<string, string>();
  let prefix: string | undefined;
  while (prefix === undefined && firstDigits.size <= 16) {
    const id = await createdContainer(context);
    const digit = id.slice(0, 1);
    if (firstDigits.has(digit)) prefix = digit;
    else firstDigits.set(digit, id);
  }
  if (prefix === undefined) throw new Error('setup: 17 container ids with 17 different first digits: ids are not hex');
  const res = await context.engine.get(`/containers/${prefix}/json`);
  context.expect(res.status, `GET /containers/${prefix}/json status (an error status)`).toBeGreaterThanOrEqual(400);
});

interface Endpoint {
  method: string;
  action: string;
  query?: Record<string, string>;
  json?: unknown;
  /** a tar body, sent as application/x-tar */
  tar?: true;
  /** asked with a websocket handshake (RFC 6455), not a plain request */
  websocket?: true;
  since?: string;
  until?: string;
}

/** Every container endpoint of spec/1 §4.1 whose status codes include 404 (update has none shown). */
const ENDPOINTS: Endpoint[] = [
  { method: 'GET', action: 'json' },
  { method: 'GET', action: 'top' },
  { method: 'GET', action: 'logs', query: { stdout: '1' } },
  { method: 'GET', action: 'changes' },
  { method: 'GET', action: 'export' },
  { method: 'GET', action: 'stats', query: { stream: '0' } },
  { method: 'POST', action: 'resize', query: { h: '24', w: '80' } },
  { method: 'POST', action: 'start' },
  { method: 'POST', action: 'stop' },
  { method: 'POST', action: 'restart' },
  { method: 'POST', action: 'kill' },
  { method: 'POST', action: 'rename', query: { name: 'shipshape-renamed' } },
  { method: 'POST', action: 'pause' },
  { method: 'POST', action: 'unpause' },
  { method: 'POST', action: 'attach', query: { stream: '1', stdout: '1' } },
  { method: 'GET', action: 'attach/ws', query: { stream: '1', stdout: '1' }, websocket: true },
  { method: 'POST', action: 'wait' },
  { method: 'DELETE', action: '' },
  { method: 'POST', action: 'copy', json: { Resource: '/' }, until: '1.23' },
  { method: 'HEAD', action: 'archive', query: { path: '/' }, since: '1.20' },
  { method: 'GET', action: 'archive', query: { path: '/' }, since: '1.20' },
  { method: 'PUT', action: 'archive', query: { path: '/' }, tar: true, since: '1.20' },
];

const UNKNOWN_NAME = 'shipshape-no-such-container';

/**
 * A websocket handshake (RFC 6455) with GET `path` under the check's version prefix, answered with
 * anything but 101: the refusal as an ApiResponse. An opened socket is closed and reads as 101.
 */
async function refusedHandshake({ engine, session }: CheckContext, path: string, query: Record<string, string> | undefined): Promise<ApiResponse> {
  const fullPath = `${engine.version === undefined ? '' : `/v${engine.version}`}${path}${encodeQuery(query)}`;
  const record: { method: string; path: string; status?: number } = { method: 'GET', path: `${fullPath} (websocket)` };
  engine.exchanges.push(record);
  const { socketPath, origin, tls } = session.target.connection;
  const url = socketPath ? `ws+unix://${socketPath}:${fullPath}` : `${origin.replace(/^http/, 'ws')}${fullPath}`;
  const socket = new WebSocket(url, tls ? { ca: tls.ca, cert: tls.cert, key: tls.key, rejectUnauthorized: !tls.skipVerify } : {});
  const answer = await new Promise<ApiResponse>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the websocket handshake with ${fullPath} was not answered within ${STREAM_TIMEOUT_MS} ms`)), STREAM_TIMEOUT_MS);
    socket.once('open', () => {
      clearTimeout(timer);
      resolve(new ApiResponse('GET', fullPath, 101, {}, Buffer.alloc(0)));
    });
    socket.once('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('end', () => {
        clearTimeout(timer);
        const headers = Object.fromEntries(Object.entries(response.headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]])));
        resolve(new ApiResponse('GET', fullPath, response.statusCode ?? 0, headers, Buffer.concat(chunks)));
      });
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  record.status = answer.status;
  socket.terminate();
  return answer;
}

/** Each applicable endpoint of ENDPOINTS, asked about UNKNOWN_NAME at the version under test: `judge`'s word on its answer, by request. */
async function unknownContainerAnswers(context: CheckContext, judge: (res: ApiResponse, method: string) => string): Promise<Record<string, string>> {
  const { engine, version } = context;
  const answers: Record<string, string> = {};
  // A well-formed request to each (the rows also list 400): a handshake for attach/ws, a tar for PUT archive.
  const tarBody = await buildTar([{ kind: 'file', name: 'unused.txt', data: 'x' }]);
  for (const endpoint of ENDPOINTS.filter((candidate) => appliesAt(version, candidate.since ?? OLDEST_VERSION, candidate.until))) {
    const path = `/containers/${UNKNOWN_NAME}${endpoint.action ? `/${endpoint.action}` : ''}`;
    const res = endpoint.websocket
      ? await refusedHandshake(context, path, endpoint.query)
      : await engine.send(endpoint.method, path, { query: endpoint.query, json: endpoint.json, ...(endpoint.tar && { body: tarBody, headers: { 'content-type': 'application/x-tar' } }) });
    answers[`${endpoint.method} ${path}`] = judge(res, endpoint.method);
  }
  return answers;
}

check('containers.endpoints.unknown-container', {
  title: 'every container endpoint answers 404 for an unknown container',
  spec: '1 §4, §7.2',
  quote: ['`{id_or_name}` is a container identifier or name.', 'The status codes of each endpoint are listed in section 4.', '404 no such container', '404 (no such container, or no such file or directory)', '404 (no such container or path)', 'removed at 1.24 and later (the call errors out)', '| GET /containers/{id_or_name}/attach/ws | same query as attach; websocket handshake per RFC 6455 | none | websocket stream | 200, 400, 404, 500 |', 'PUT /containers/{id_or_name}/archive | path (required, an existing directory)', 'header Content-Type `application/x-tar` | tar stream |'],
  since: '1.18',
  tags: ['error'],
  covers: [
    '1:GET /containers/{id_or_name}/json:status:404',
    '1:GET /containers/{id_or_name}/top:status:404',
    '1:GET /containers/{id_or_name}/logs:status:404',
    '1:GET /containers/{id_or_name}/changes:status:404',
    '1:GET /containers/{id_or_name}/export:status:404',
    '1:GET /containers/{id_or_name}/stats:status:404',
    '1:POST /containers/{id_or_name}/resize:status:404',
    '1:POST /containers/{id_or_name}/start:status:404',
    '1:POST /containers/{id_or_name}/stop:status:404',
    '1:POST /containers/{id_or_name}/restart:status:404',
    '1:POST /containers/{id_or_name}/kill:status:404',
    '1:POST /containers/{id_or_name}/rename:status:404',
    '1:POST /containers/{id_or_name}/pause:status:404',
    '1:POST /containers/{id_or_name}/unpause:status:404',
    '1:POST /containers/{id_or_name}/attach:status:404',
    '1:GET /containers/{id_or_name}/attach/ws:status:404',
    '1:POST /containers/{id_or_name}/wait:status:404',
    '1:DELETE /containers/{id_or_name}:status:404',
    '1:POST /containers/{id_or_name}/copy:status:404',
    '1:HEAD /containers/{id_or_name}/archive:status:404',
    '1:GET /containers/{id_or_name}/archive:status:404',
    '1:PUT /containers/{id_or_name}/archive:status:404',
  ],
}, async (context) => {
  const answers = await unknownContainerAnswers(context, (res) => (res.status === 404 ? '404' : `${res.status} ${JSON.stringify(res.text().trim().slice(0, 80))}`));
  const wrong = Object.entries(answers).filter(([, answer]) => answer !== '404').map(([request, answer]) => `${request} → ${answer}`);
  context.expect(wrong, `endpoints that did not answer 404: ${wrong.join('; ')}`).toEqual([]);
});

check('containers.endpoints.unknown-container-named', {
  title: 'every container endpoint answers 404 for an unknown container with a body naming it (so not a routing miss)',
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['error'],
}, async (context) => {
  const answers = await unknownContainerAnswers(context, (res, method) => {
    // A HEAD answer has no body to name the container in.
    const namesIt = method === 'HEAD' || res.text().includes(UNKNOWN_NAME);
    return res.status === 404 && namesIt ? '404' : `${res.status} ${JSON.stringify(res.text().trim().slice(0, 80))}`;
  });
  const wrong = Object.entries(answers).filter(([, answer]) => answer !== '404').map(([request, answer]) => `${request} → ${answer}`);
  context.expect(wrong, `endpoints that did not answer 404 naming the container: ${wrong.join('; ')}`).toEqual([]);
});
