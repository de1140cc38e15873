/**
 * The two personalities over real servers: at each choice point tested here the spec allows both
 * answers, dockerd's personality gives dockerd's and strict the other one.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ENGINE_ROUTES } from '../../reference/engine/http/engine-server.ts';
import { DETAIL_HEADER } from '../../reference/engine/http/error-responses.ts';
import { PERSONALITIES } from '../../reference/engine/http/personality.ts';
import { SPEC_STATUSES } from '../../reference/engine/http/spec-statuses.ts';
import { ManualScheduler } from '../../reference/engine/process/index.ts';
import { startReference, type PersonalityName, type RunningReference } from '../../reference/serve.ts';
import { httpCaller, type Call } from './http-client.ts';

const clock = new ManualScheduler();
const references = {} as Record<PersonalityName, { reference: RunningReference; call: Call }>;

beforeAll(async () => {
  for (const personality of ['dockerd', 'strict'] as const) {
    const reference = await startReference({ scheduler: clock, personality });
    references[personality] = { reference, call: httpCaller(reference.engineUrl) };
  }
});
afterAll(async () => {
  for (const { reference } of Object.values(references)) await reference.close();
});
beforeEach(() => {
  for (const { reference } of Object.values(references)) reference.reset();
});

/** Creates containers of these names, in this order; `started` ones are started. */
async function containers(call: Call, names: string[], started: string[] = []): Promise<void> {
  for (const name of names) {
    expect((await call('POST', `/containers/create?name=${name}`, { json: { Image: 'busybox', Cmd: ['sleep', '300'] } })).status).toBe(201);
    if (started.includes(name)) expect((await call('POST', `/containers/${name}/start`)).status).toBe(204);
  }
  await clock.advance(0);
}

/** The names a container list answers, in its order. */
async function listed(call: Call, path: string): Promise<string[]> {
  const res = await call('GET', path);
  expect(res.status, res.text).toBe(200);
  return res.json<Array<{ Names: string[] }>>().map((item) => item.Names[0] ?? '');
}

describe.each([
  ['dockerd', { execIds: null, yes: ['/cc'], order: ['/bb', '/aa'] }],
  ['strict', { execIds: [], yes: [], order: ['/aa', '/bb'] }],
] as const)('%s', (personality, expected) => {
  const call = () => references[personality].call;

  test('ExecIDs of a container with no exec instance ("array or null")', async () => {
    await containers(call(), ['cc']);
    expect((await call()('GET', '/containers/cc/json')).json().ExecIDs).toEqual(expected.execIds);
  });

  test('all=yes, not a boolean of the spec: true on dockerd, the default (false) on strict', async () => {
    await containers(call(), ['cc']);
    expect(await listed(call(), '/containers/json?all=yes')).toEqual(expected.yes);
    expect(await listed(call(), '/containers/json?all=True')).toEqual(['/cc']);
  });

  test('the container list, whose order the spec does not fix: newest first on dockerd, reversed on strict', async () => {
    await containers(call(), ['aa', 'bb']);
    expect(await listed(call(), '/containers/json?all=1')).toEqual(expected.order);
  });
});

describe('errors', () => {
  test("kill of a container that is not running: dockerd's 409 and words; strict's listed 500, its own words, the model's in a header", async () => {
    for (const personality of ['dockerd', 'strict'] as const) await containers(references[personality].call, ['idle']);
    const dockerd = await references.dockerd.call('POST', '/v1.24/containers/idle/kill');
    expect(dockerd.status).toBe(409);
    expect(dockerd.json().message).toMatch(/^Cannot kill container: idle: Container \w+ is not running$/);
    const strict = await references.strict.call('POST', '/v1.24/containers/idle/kill');
    expect([strict.status, strict.json().message]).toEqual([500, 'reference (strict): server error']);
    expect(decodeURIComponent(String(strict.headers[DETAIL_HEADER.toLowerCase()]))).toMatch(/is not running$/);
  });

  test('before 1.24 the body is plain text on both', async () => {
    const strict = await references.strict.call('GET', '/v1.23/containers/nothing/json');
    expect([strict.status, strict.headers['content-type'], strict.text]).toEqual([404, 'text/plain; charset=utf-8', 'reference (strict): no such object\n']);
  });

  test('a status the row lists is kept: 409 for a name taken at create', async () => {
    await containers(references.strict.call, ['taken']);
    const res = await references.strict.call('POST', '/containers/create?name=taken', { json: { Image: 'busybox' } });
    expect(res.status).toBe(409);
  });
});

describe('container list since and before', () => {
  test('dockerd lists non-running containers with since; strict only what all says (spec/1 §4.1 says so of limit only)', async () => {
    for (const personality of ['dockerd', 'strict'] as const) await containers(references[personality].call, ['first', 'second', 'third'], ['third']);
    expect(await listed(references.dockerd.call, '/containers/json?since=first')).toEqual(['/third', '/second']);
    expect(await listed(references.strict.call, '/containers/json?since=first')).toEqual(['/third']);
    expect(await listed(references.strict.call, '/containers/json?since=first&all=1')).toEqual(['/second', '/third']);
  });
});

describe('later features at earlier versions', () => {
  test('container update at 1.21 and the daemon event filter at 1.23: refused on dockerd, taken on strict', async () => {
    for (const personality of ['dockerd', 'strict'] as const) await containers(references[personality].call, ['uu']);
    expect((await references.dockerd.call('POST', '/v1.21/containers/uu/update', { json: { CpuShares: 512 } })).status).toBe(404);
    expect((await references.strict.call('POST', '/v1.21/containers/uu/update', { json: { CpuShares: 512 } })).status).toBe(200);
    const filters = encodeURIComponent(JSON.stringify({ daemon: ['x'] }));
    expect((await references.dockerd.call('GET', `/v1.23/events?until=1&filters=${filters}`)).status).toBe(400);
    expect((await references.strict.call('GET', `/v1.23/events?until=1&filters=${filters}`)).status).toBe(200);
  });

  test('the list item fields of 1.23 (State, Mounts) show at 1.18 on strict only', async () => {
    for (const personality of ['dockerd', 'strict'] as const) await containers(references[personality].call, ['old']);
    expect((await references.dockerd.call('GET', '/v1.18/containers/json?all=1')).json<Array<Record<string, unknown>>>()[0]).not.toHaveProperty('State');
    expect((await references.strict.call('GET', '/v1.18/containers/json?all=1')).json<Array<Record<string, unknown>>>()[0]).toHaveProperty('State', 'created');
  });
});

describe('empty optional fields', () => {
  test("a volume's empty Labels and Options: null on dockerd, left out on strict (spec/2 §2.3)", async () => {
    const dockerd = await references.dockerd.call('POST', '/v1.25/volumes/create', { json: { Name: 'vv' } });
    expect(dockerd.json()).toMatchObject({ Labels: null, Options: null });
    const strict = await references.strict.call('POST', '/v1.25/volumes/create', { json: { Name: 'vv' } });
    expect(strict.json()).not.toHaveProperty('Labels');
    expect(strict.json()).not.toHaveProperty('Options');
  });
});

describe('the strict personality on its own', () => {
  test.each([
    ['1', false, true],
    ['True', false, true],
    ['0', true, false],
    ['False', true, false],
    ['TRUE', false, false],
    ['no', true, true],
    ['', true, true],
  ])('booleanQuery(%j) with default %j is %j', (value, fallback, expected) => {
    expect(PERSONALITIES.strict.booleanQuery(value, fallback)).toBe(expected);
  });

  test('an unlisted status becomes 500 where the row lists 500, and stays where it does not', () => {
    expect(PERSONALITIES.strict.errorStatus(409, [204, 404, 500])).toBe(500);
    expect(PERSONALITIES.strict.errorStatus(409, [204, 404, 409, 500])).toBe(409);
    expect(PERSONALITIES.strict.errorStatus(400, [200, 404, 409])).toBe(400);
    expect(PERSONALITIES.strict.errorStatus(501, undefined)).toBe(501);
  });

  test("every endpoint row of the statuses table names a route of the server, so that none is left out by a typo", () => {
    const routes = new Set(ENGINE_ROUTES.map((route) => `${route.method} ${route.path}`));
    expect(Object.keys(SPEC_STATUSES).filter((key) => !routes.has(key))).toEqual([]);
  });
});
