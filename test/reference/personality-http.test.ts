/**
 * The two personalities over real servers: at each choice point tested here the spec allows both
 * answers, dockerd's personality gives dockerd's and strict the other one.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ENGINE_ROUTES } from '../../reference/engine/http/engine-server.ts';
import { DETAIL_HEADER } from '../../reference/engine/http/error-responses.ts';
import { PERSONALITIES } from '../../reference/engine/http/personality.ts';
import { SPEC_QUERY_ROUTES, specQueryParameters } from '../../reference/engine/http/spec-query-parameters.ts';
import { SPEC_STATUSES } from '../../reference/engine/http/spec-statuses.ts';
import { ManualScheduler } from '../../reference/engine/process/index.ts';
import type { PersonalityName } from '../../protocol/personality-names.ts';
import { startReference, type RunningReference } from '../../reference/serve.ts';
import { buildTar } from '../../suites/tar-files.ts';
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
  test('container update at 1.21 and the daemon event filter at 1.23: refused on both (each is taken from the version the spec gives it)', async () => {
    for (const personality of ['dockerd', 'strict'] as const) {
      const { call } = references[personality];
      await containers(call, ['uu']);
      expect((await call('POST', '/v1.21/containers/uu/update', { json: { CpuShares: 512 } })).status).toBe(404);
      const filters = encodeURIComponent(JSON.stringify({ daemon: ['x'] }));
      // the events row lists 200 and 500 only: strict's refusal is the listed 500
      expect((await call('GET', `/v1.23/events?until=1&filters=${filters}`)).status).toBe(personality === 'dockerd' ? 400 : 500);
    }
  });

  test('the list item fields of 1.23 (State, Mounts) show at 1.18 on strict only', async () => {
    for (const personality of ['dockerd', 'strict'] as const) await containers(references[personality].call, ['old']);
    expect((await references.dockerd.call('GET', '/v1.18/containers/json?all=1')).json<Array<Record<string, unknown>>>()[0]).not.toHaveProperty('State');
    expect((await references.strict.call('GET', '/v1.18/containers/json?all=1')).json<Array<Record<string, unknown>>>()[0]).toHaveProperty('State', 'created');
  });
});

describe('what the spec does not define', () => {
  test("dockerd's own query parameters and body fields: taken on dockerd, ignored on strict", async () => {
    for (const personality of ['dockerd', 'strict'] as const) await containers(references[personality].call, ['qq']);
    // a logs parameter the row gives at 1.25 only (details), and HostConfig.Init, which spec/1 §2.3 does not list
    const body = { Image: 'busybox', Cmd: ['true'], HostConfig: { Init: true } };
    const dockerd = await references.dockerd.call('POST', '/v1.25/containers/create?name=ii', { json: body });
    const strict = await references.strict.call('POST', '/v1.25/containers/create?name=ii', { json: body });
    expect([dockerd.status, strict.status]).toEqual([201, 201]);
    expect((await references.dockerd.call('GET', '/v1.25/containers/ii/json')).json<{ HostConfig: Record<string, unknown> }>().HostConfig.Init).toBe(true);
    expect((await references.strict.call('GET', '/v1.25/containers/ii/json')).json<{ HostConfig: Record<string, unknown> }>().HostConfig).not.toHaveProperty('Init');
  });

  test('a body key in another case than the field: Go takes it on dockerd; strict takes the spec\'s names only', async () => {
    const body = { image: 'busybox', cmd: ['true'] };
    expect((await references.dockerd.call('POST', '/v1.25/containers/create?name=lc', { json: body })).status).toBe(201);
    expect((await references.strict.call('POST', '/v1.25/containers/create?name=lc', { json: body })).status).toBe(400);
  });

  test("a query parameter the build's row does not define (labels): applied on dockerd, ignored on strict", async () => {
    const context = await buildTar([{ kind: 'file', name: 'Buildfile', data: Buffer.from('FROM busybox\n') }]);
    const labels = encodeURIComponent(JSON.stringify({ made: 'here' }));
    for (const personality of ['dockerd', 'strict'] as const) {
      const { call } = references[personality];
      const built = await call('POST', `/v1.25/build?t=labelled&labels=${labels}`, { body: context, headers: { 'content-type': 'application/tar' } });
      expect(built.status, built.text).toBe(200);
      const image = (await call('GET', '/v1.25/images/labelled/json')).json<{ Config?: { Labels?: unknown }; ContainerConfig: { Labels?: unknown } }>();
      expect((image.Config ?? image.ContainerConfig).Labels ?? {}, personality).toEqual(personality === 'dockerd' ? { made: 'here' } : {});
    }
  });

  test('the detach keys when the client names none: ctrl-p ctrl-q on dockerd, none on strict (the spec names no default)', () => {
    expect([...PERSONALITIES.dockerd.defaultDetachKeys]).toEqual([0x10, 0x11]);
    expect(PERSONALITIES.strict.defaultDetachKeys.length).toBe(0);
  });

  test('a network driver option it does not know: kept on dockerd; not applied on strict, which says so in Warning', async () => {
    const body = { Name: 'nn', Options: { 'com.example.unknown': 'x', 'com.docker.network.driver.mtu': '1400' } };
    const dockerd = await references.dockerd.call('POST', '/v1.25/networks/create', { json: body });
    const strict = await references.strict.call('POST', '/v1.25/networks/create', { json: body });
    expect([dockerd.status, dockerd.json().Warning]).toEqual([201, '']);
    expect([strict.status, strict.json().Warning]).toEqual([201, 'reference (strict): driver options not applied: com.example.unknown']);
    expect((await references.dockerd.call('GET', '/v1.25/networks/nn')).json().Options).toEqual(body.Options);
    expect((await references.strict.call('GET', '/v1.25/networks/nn')).json().Options).toEqual({ 'com.docker.network.driver.mtu': '1400' });
  });

  test("ulimits' names, ShmSize's default and a relative container path in Binds", async () => {
    const body = { Image: 'busybox', HostConfig: { Ulimits: [{ Name: 'nofile', Soft: 1024, Hard: 2048 }], Binds: ['vv:data'] } };
    const dockerd = await references.dockerd.call('POST', '/v1.25/containers/create?name=uu', { json: body });
    expect(dockerd.status).toBe(400);
    expect((await references.strict.call('POST', '/v1.25/containers/create?name=uu', { json: body })).status).toBe(201);
    const strict = (await references.strict.call('GET', '/v1.25/containers/uu/json')).json<{ HostConfig: { Ulimits: unknown; ShmSize: number }; Mounts: { Destination: string }[] }>();
    expect(strict.HostConfig.Ulimits).toEqual([{ Name: 'NOFILE', Soft: 1024, Hard: 2048 }]);
    expect(strict.HostConfig.ShmSize).toBe(64_000_000);
    expect(strict.Mounts.map((mount) => mount.Destination)).toEqual(['/data']);
    expect((await references.dockerd.call('POST', '/v1.25/containers/create?name=uu', { json: { ...body, HostConfig: { ...body.HostConfig, Binds: ['vv:/data'] } } })).status).toBe(201);
    const docker = (await references.dockerd.call('GET', '/v1.25/containers/uu/json')).json<{ HostConfig: { Ulimits: unknown; ShmSize: number } }>();
    expect(docker.HostConfig.Ulimits).toEqual([{ Name: 'nofile', Soft: 1024, Hard: 2048 }]);
    expect(docker.HostConfig.ShmSize).toBe(64 * 1024 * 1024);
  });

  test('a quiet build: the image id alone on dockerd, a line naming the image on strict', () => {
    expect(PERSONALITIES.dockerd.quietBuildOutput('sha256:ab')).toBe('sha256:ab\n');
    expect(PERSONALITIES.strict.quietBuildOutput('sha256:ab')).toBe('reference (strict): built image sha256:ab\n');
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

  test("every endpoint row of the statuses and query tables names a route of the server, so that none is left out by a typo", () => {
    const routes = new Set(ENGINE_ROUTES.map((route) => `${route.method} ${route.path}`));
    expect(Object.keys(SPEC_STATUSES).filter((key) => !routes.has(key))).toEqual([]);
    expect(SPEC_QUERY_ROUTES.filter((key) => !routes.has(key))).toEqual([]);
  });

  test('the query table: a parameter from the version the row gives it, up to its last', () => {
    expect(specQueryParameters('GET /containers/{id*}/logs', '1.18')).toEqual(['follow', 'stdout', 'stderr', 'timestamps', 'tail']);
    expect(specQueryParameters('GET /containers/{id*}/logs', '1.25')).toContain('details');
    expect(specQueryParameters('POST /images/{name*}/tag', '1.23')).toContain('force');
    expect(specQueryParameters('POST /images/{name*}/tag', '1.24')).toEqual(['repo', 'tag']);
    expect(specQueryParameters('POST /containers/{id*}/update', '1.25')).toBeUndefined();
  });
});
