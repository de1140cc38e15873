/** The network endpoints over a real server on a manual clock: statuses, bodies and shapes per version. */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ManualScheduler } from '../../../reference/engine/process/index.ts';
import { startReference, type RunningReference } from '../../../reference/serve.ts';
import { httpCaller, type Call } from '../http-client.ts';

let reference: RunningReference;
let call: Call;

beforeAll(async () => {
  reference = await startReference({ scheduler: new ManualScheduler() });
  call = httpCaller(reference.engineUrl);
});
afterAll(() => reference.close());
beforeEach(() => reference.reset());

async function created(body: Record<string, unknown>, version = '/v1.25'): Promise<string> {
  const res = await call('POST', `${version}/networks/create`, { json: body });
  expect(res.status, res.text).toBe(201);
  return res.json<{ Id: string }>().Id;
}

async function runningContainer(name: string): Promise<void> {
  expect((await call('POST', `/containers/create?name=${name}`, { json: { Image: 'busybox', Cmd: ['sleep', '300'] } })).status).toBe(201);
  expect((await call('POST', `/containers/${name}/start`)).status).toBe(204);
}

describe('create', () => {
  test('201 {Id, Warning}; a duplicate name warns, or with CheckDuplicate is 409', async () => {
    const res = await call('POST', '/v1.24/networks/create', { json: { Name: 'n1' } });
    expect([res.status, Object.keys(res.json())]).toEqual([201, ['Id', 'Warning']]);
    expect(res.json<{ Warning: string }>().Warning).toBe('');
    const again = await call('POST', '/v1.24/networks/create', { json: { Name: 'n1' } });
    expect(again.json<{ Warning: string }>().Warning).toMatch(/^Network with name n1 \(id : [0-9a-f]{64}\) already exists$/);
    const refused = await call('POST', '/v1.24/networks/create', { json: { Name: 'n1', CheckDuplicate: true } });
    expect([refused.status, refused.json()]).toEqual([409, { message: 'network with name n1 already exists' }]);
  });

  test.each([
    ['no name', {}, 400, 'invalid name: '],
    ['an unknown driver', { Name: 'x', Driver: 'nosuch' }, 404, 'plugin "nosuch" not found'],
    ['a predefined name', { Name: 'host' }, 403, 'operation is not permitted on predefined host network '],
    ['a Name that is no string', { Name: 7 }, 400, 'json: cannot unmarshal number into Go struct field NetworkCreateRequest.Name of type string'],
  ])('refuses %s: %i', async (_, body, status, message) => {
    const res = await call('POST', '/v1.21/networks/create', { json: body });
    expect([res.status, res.text]).toEqual([status, `${message}\n`]);
  });
});

describe('inspect and list', () => {
  test('EnableIPv6 and Internal from 1.23; Labels, Created and Attachable from 1.25', async () => {
    await created({ Name: 'shaped', Labels: { a: 'b' }, Internal: true, Options: { o: 'p' }, IPAM: { Config: [{ Subnet: '10.213.7.0/24', IPRange: '10.213.7.128/25', Gateway: '10.213.7.1' }] } });
    const keys = async (version: string) => Object.keys((await call('GET', `/v${version}/networks/shaped`)).json());
    expect(await keys('1.22')).toEqual(['Name', 'Id', 'Scope', 'Driver', 'IPAM', 'Containers', 'Options']);
    expect(await keys('1.23')).toEqual(['Name', 'Id', 'Scope', 'Driver', 'EnableIPv6', 'IPAM', 'Internal', 'Containers', 'Options']);
    expect(await keys('1.25')).toEqual(['Name', 'Id', 'Created', 'Scope', 'Driver', 'EnableIPv6', 'IPAM', 'Internal', 'Attachable', 'Containers', 'Options', 'Labels']);
    expect((await call('GET', '/v1.25/networks/shaped')).json()).toMatchObject({
      Driver: 'bridge',
      Scope: 'local',
      Internal: true,
      IPAM: { Driver: 'default', Options: null, Config: [{ Subnet: '10.213.7.0/24', IPRange: '10.213.7.128/25', Gateway: '10.213.7.1' }] },
      Options: { o: 'p' },
      Labels: { a: 'b' },
    });
  });

  test('by id, name or id prefix; 404 in the version’s error body', async () => {
    const id = await created({ Name: 'found' });
    for (const reference of [id, 'found', id.slice(0, 10)]) expect((await call('GET', `/networks/${reference}`)).json<{ Id: string }>().Id).toBe(id);
    const missing = await call('GET', '/v1.21/networks/nosuch');
    expect([missing.status, missing.text]).toEqual([404, 'network nosuch not found\n']);
  });

  test('served below 1.21 too, as dockerd serves it', async () => {
    const res = await call('GET', '/v1.18/networks');
    expect([res.status, res.json<{ Name: string }[]>().map((network) => network.Name)]).toEqual([200, ['none', 'host', 'bridge']]);
  });

  test('filters: both forms; an unknown name 400, an unknown type 500', async () => {
    await created({ Name: 'listed', Labels: { tier: 'web' } });
    const names = async (filters: unknown) =>
      (await call('GET', `/networks?filters=${encodeURIComponent(JSON.stringify(filters))}`)).json<{ Name: string }[]>().map((network) => network.Name);
    expect(await names({ label: ['tier=web'] })).toEqual(['listed']);
    expect(await names({ type: { builtin: true }, driver: { bridge: true } })).toEqual(['bridge']);
    const status = async (filters: unknown) => (await call('GET', `/networks?filters=${encodeURIComponent(JSON.stringify(filters))}`)).status;
    expect([await status({ bogus: ['x'] }), await status({ type: ['bogus'] })]).toEqual([400, 500]);
  });

  test('dangling: networks no container is on, never a predefined one; false lists the others; another value is 400 in dockerd\'s words', async () => {
    await created({ Name: 'unused' });
    await created({ Name: 'used' });
    await runningContainer('on-used');
    expect((await call('POST', '/v1.25/networks/used/connect', { json: { Container: 'on-used' } })).status).toBe(200);
    const listed = async (value: string) =>
      (await call('GET', `/v1.25/networks?filters=${encodeURIComponent(JSON.stringify({ dangling: [value] }))}`)).json<{ Name: string }[]>().map((network) => network.Name).sort();
    expect(await listed('true')).toEqual(['unused']);
    expect(await listed('1')).toEqual(['unused']);
    expect(await listed('false')).toEqual(['bridge', 'host', 'none', 'used']);
    const refused = await call('GET', `/v1.25/networks?filters=${encodeURIComponent(JSON.stringify({ dangling: ['bogus'] }))}`);
    expect([refused.status, refused.json()]).toEqual([400, { message: 'invalid value for filter \'dangling\', must be "true" (or "1"), or "false" (or "0")' }]);
  });
});

describe('connect and disconnect', () => {
  test('200 with no body; both sides show the endpoint, the static address as asked and no empty IPAMConfig field', async () => {
    const id = await created({ Name: 'joined', IPAM: { Config: [{ Subnet: '10.213.8.0/24' }] } });
    await runningContainer('app');
    const res = await call('POST', '/v1.24/networks/joined/connect', { json: { Container: 'app', EndpointConfig: { IPAMConfig: { IPv4Address: '10.213.8.9' } } } });
    expect([res.status, res.text]).toEqual([200, '']);
    const containerSide = (await call('GET', '/v1.24/containers/app/json')).json<{ Id: string; NetworkSettings: { Networks: Record<string, Record<string, unknown>> } }>();
    const networkSide = (await call('GET', '/v1.24/networks/joined')).json<{ Containers: Record<string, Record<string, unknown>> }>();
    const settings = containerSide.NetworkSettings.Networks.joined;
    expect(settings).toMatchObject({ NetworkID: id, IPAddress: '10.213.8.9', IPPrefixLen: 24, IPAMConfig: { IPv4Address: '10.213.8.9' } });
    expect(Object.keys(settings?.IPAMConfig as object)).toEqual(['IPv4Address']);
    expect(networkSide.Containers[containerSide.Id]).toEqual({
      Name: 'app',
      EndpointID: settings?.EndpointID,
      MacAddress: settings?.MacAddress,
      IPv4Address: '10.213.8.9/24',
      IPv6Address: '',
    });
    const left = await call('POST', '/v1.24/networks/joined/disconnect', { json: { Container: 'app', Force: true } });
    expect([left.status, left.text]).toEqual([200, '']);
    expect((await call('GET', '/v1.24/networks/joined')).json<{ Containers: object }>().Containers).toEqual({});
  });

  test('404 for an unknown container or network, 403 for an endpoint that exists', async () => {
    await created({ Name: 'n' });
    await runningContainer('app');
    expect((await call('POST', '/networks/n/connect', { json: { Container: 'ghost' } })).status).toBe(404);
    expect((await call('POST', '/networks/ghost/connect', { json: { Container: 'app' } })).status).toBe(404);
    expect((await call('POST', '/networks/n/connect', { json: { Container: 'app' } })).status).toBe(200);
    expect((await call('POST', '/networks/n/connect', { json: { Container: 'app' } })).status).toBe(403);
  });
});

describe('remove', () => {
  test('200 before 1.22, 204 from 1.22; then 404', async () => {
    await created({ Name: 'old' });
    await created({ Name: 'new' });
    const old = await call('DELETE', '/v1.21/networks/old');
    const recent = await call('DELETE', '/v1.22/networks/new');
    expect([old.status, old.text, recent.status, recent.text]).toEqual([200, '', 204, '']);
    expect((await call('DELETE', '/v1.22/networks/new')).status).toBe(404);
  });

  test('403 for a predefined network and for one a running container is on', async () => {
    await created({ Name: 'busy' });
    await runningContainer('app');
    expect((await call('POST', '/networks/busy/connect', { json: { Container: 'app' } })).status).toBe(200);
    const busy = await call('DELETE', '/v1.24/networks/busy');
    expect([busy.status, busy.json<{ message: string }>().message]).toEqual([403, expect.stringMatching(/^error while removing network: network busy id [0-9a-f]{64} has active endpoints$/)]);
    const builtin = await call('DELETE', '/v1.24/networks/bridge');
    expect([builtin.status, builtin.json()]).toEqual([403, { message: 'bridge is a pre-defined network and cannot be removed' }]);
  });
});
