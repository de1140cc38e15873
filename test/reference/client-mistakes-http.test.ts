/**
 * Client mistakes over HTTP (issue 16): each answered with a status that says whose mistake it is and
 * words that say why — 400 where the endpoint's row lists it, the row's 500 where it lists no 400 —
 * and request bodies refused in Go's words, with names matched without regard to case.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../reference/serve.ts';
import { httpCaller, type Call } from './http-client.ts';

let reference: RunningReference;
let call: Call;

beforeAll(async () => {
  reference = await startReference({ swarm: true });
  call = httpCaller(reference.engineUrl);
});
afterAll(() => reference.close());
beforeEach(() => reference.reset());

const filters = (value: unknown) => encodeURIComponent(JSON.stringify(value));

async function running(name: string): Promise<void> {
  expect((await call('POST', `/v1.25/containers/create?name=${name}`, { json: { Image: 'busybox', Cmd: ['sleep', '300'] } })).status).toBe(201);
  expect((await call('POST', `/v1.25/containers/${name}/start`)).status).toBe(204);
}

describe('container create', () => {
  test('a value of the wrong type is 400 in Go\'s words, naming the field as dockerd does', async () => {
    const res = await call('POST', '/v1.25/containers/create', { json: { Image: 'busybox', Cmd: ['true'], HostConfig: { Privileged: 'yes' } } });
    expect([res.status, res.json()]).toEqual([400, { message: 'json: cannot unmarshal string into Go struct field HostConfig.HostConfig.Privileged of type bool' }]);
    const huge = await call('POST', '/v1.25/containers/create', { body: '{"Image":"busybox","Cmd":["true"],"HostConfig":{"CpuShares":1e308}}', headers: { 'content-type': 'application/json' } });
    expect([huge.status, huge.json()]).toEqual([400, { message: 'json: cannot unmarshal number 1e308 into Go struct field HostConfig.HostConfig.CpuShares of type int64' }]);
  });

  test('field names in any case are the declared ones; inspect shows only what the decoder knows', async () => {
    const res = await call('POST', '/v1.25/containers/create?name=cased', { json: { image: 'busybox', cmd: ['true'], hostconfig: { privileged: true, lxcconf: [], NoSuchField: 'x' } } });
    expect(res.status, res.text).toBe(201);
    const { HostConfig } = (await call('GET', '/v1.25/containers/cased/json')).json<{ HostConfig: Record<string, unknown> }>();
    expect(HostConfig.Privileged).toBe(true);
    expect(HostConfig).not.toHaveProperty('NoSuchField');
  });

  test('a bind spec that is no bind is 400 (dockerd: 500)', async () => {
    const res = await call('POST', '/v1.25/containers/create', { json: { Image: 'busybox', Cmd: ['true'], HostConfig: { Binds: ['/a:rel'] } } });
    expect([res.status, res.json()]).toEqual([400, { message: 'invalid volume specification: \'/a:rel\': invalid mount config for type "bind": invalid mount path: \'rel\' mount path must be absolute' }]);
    expect((await call('POST', '/v1.25/containers/create', { json: { Image: 'busybox', Cmd: ['true'], HostConfig: { Binds: ['::'] } } })).status).toBe(400);
  });
});

describe('container list', () => {
  test('since or before naming no container is 400, as the filters of those names', async () => {
    for (const query of ['since=ghost', 'before=ghost', `filters=${filters({ since: ['ghost'] })}`]) {
      const res = await call('GET', `/v1.25/containers/json?${query}`);
      expect([query, res.status, res.json()]).toEqual([query, 400, { message: 'no such container ghost' }]);
    }
  });

  test('publish, expose, is-task and isolation are applied, not 501', async () => {
    expect((await call('POST', '/v1.25/containers/create?name=web', { json: { Image: 'busybox', Cmd: ['sleep', '300'], ExposedPorts: { '80/tcp': {} } } })).status).toBe(201);
    expect((await call('POST', '/v1.25/containers/web/start')).status).toBe(204);
    const listed = async (value: unknown) => (await call('GET', `/v1.25/containers/json?all=1&filters=${filters(value)}`)).json<{ Names: string[] }[]>().map((item) => item.Names[0]);
    expect(await listed({ expose: ['80'] })).toEqual(['/web']);
    expect(await listed({ publish: ['80'] })).toEqual([]);
    expect(await listed({ 'is-task': ['false'], isolation: ['default'] })).toEqual(['/web']);
  });
});

describe('endpoints whose row lists no 400', () => {
  test('POST /auth: a body of the wrong type is 500 in Go\'s words, before any registry is asked', async () => {
    const res = await call('POST', '/v1.25/auth', { json: { username: 3 } });
    expect([res.status, res.json()]).toEqual([500, { message: 'json: cannot unmarshal number into Go struct field AuthConfig.username of type string' }]);
  });
});

describe('other bodies and filters', () => {
  test('POST /commit: a body that is not JSON, or of the wrong type, is 400 in the decoder\'s words (dockerd: 500; the row is not 500-only)', async () => {
    await running('committed');
    const notJson = await call('POST', '/v1.25/commit?container=committed', { body: '{bad', headers: { 'content-type': 'application/json' } });
    expect([notJson.status, notJson.json()]).toEqual([400, { message: "invalid character 'b' in JSON request body" }]);
    const wrongType = await call('POST', '/v1.25/commit?container=committed', { json: { Tty: 'x' } });
    expect([wrongType.status, wrongType.json()]).toEqual([400, { message: 'json: cannot unmarshal string into Go struct field ContainerConfigWrapper.Tty of type bool' }]);
  });

  test('exec, network, volume and service bodies are decoded the same way', async () => {
    await running('execd');
    const refusals = await Promise.all([
      call('POST', '/v1.25/containers/execd/exec', { json: { Cmd: ['true'], Tty: 'x' } }),
      call('POST', '/v1.25/networks/create', { json: { Name: 'n', IPAM: { Config: [{ Subnet: 3 }] } } }),
      call('POST', '/v1.25/volumes/create', { json: { Name: 3 } }),
      call('POST', '/v1.25/services/create', { json: { TaskTemplate: { ContainerSpec: { Image: 3 } } } }),
    ]);
    expect(refusals.map((res) => [res.status, res.json<{ message: string }>().message])).toEqual([
      [400, 'json: cannot unmarshal string into Go struct field ExecConfig.Tty of type bool'],
      [400, 'json: cannot unmarshal number into Go struct field IPAMConfig.IPAM.Config.Subnet of type string'],
      [400, 'json: cannot unmarshal number into Go struct field VolumeCreateBody.Name of type string'],
      [400, 'json: cannot unmarshal number into Go struct field ContainerSpec.TaskTemplate.ContainerSpec.Image of type string'],
    ]);
  });

  test('a network without a name, with an empty subnet or one with no room for a gateway is 400 (dockerd: 500)', async () => {
    const refusals = await Promise.all([
      call('POST', '/v1.25/networks/create', { json: {} }),
      call('POST', '/v1.25/networks/create', { json: { Name: 'n', IPAM: { Config: [{ Subnet: '' }] } } }),
      call('POST', '/v1.25/networks/create', { json: { Name: 'n', IPAM: { Config: [{ Subnet: '10.9.9.9/32' }] } } }),
    ]);
    expect(refusals.map((res) => [res.status, res.json<{ message: string }>().message])).toEqual([
      [400, 'invalid name: '],
      [400, 'Invalid subnet  : invalid CIDR address: '],
      [400, 'failed to allocate gateway: no address left in 10.9.9.9/32'],
    ]);
  });

  test('top with ps_args ps refuses is 400 naming them (dockerd: 500)', async () => {
    await running('listed');
    const res = await call('GET', `/v1.25/containers/listed/top?ps_args=${encodeURIComponent('-Z junk')}`);
    expect([res.status, res.json()]).toEqual([400, { message: 'Error running ps: exit status 1 (ps_args "-Z junk")' }]);
  });

  test('`constructor` and `__proto__` in a body are no fields: ignored, as Go ignores unknown names', async () => {
    await running('protod');
    const keys = '"constructor":{"prototype":{"x":1}},"__proto__":{"polluted":1}';
    const headers = { 'content-type': 'application/json' };
    const answers = await Promise.all([
      call('POST', '/v1.25/containers/create', { body: `{"Image":"busybox","Cmd":["true"],${keys},"HostConfig":{${keys}}}`, headers }),
      call('POST', '/v1.25/containers/protod/update', { body: `{${keys}}`, headers }),
      call('POST', '/v1.25/containers/protod/exec', { body: `{"Cmd":["true"],${keys}}`, headers }),
      call('POST', '/v1.25/commit?container=protod', { body: `{${keys}}`, headers }),
      call('POST', '/v1.25/networks/create', { body: `{"Name":"protonet",${keys}}`, headers }),
    ]);
    expect(answers.map((res) => res.status)).toEqual([201, 200, 201, 201, 201]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('a copy body of `null` is the empty request Go decodes it to: 400, no path', async () => {
    await running('copied');
    const res = await call('POST', '/v1.23/containers/copied/copy', { body: 'null', headers: { 'content-type': 'application/json' } });
    expect([res.status, res.text.trim()]).toEqual([400, 'Path cannot be empty']);
  });

  test('the node list takes label and node.label', async () => {
    const listed = async (value: unknown) => (await call('GET', `/v1.25/nodes?filters=${filters(value)}`)).json<unknown[]>().length;
    expect([await listed({ 'node.label': ['nosuch'] }), await listed({ label: ['nosuch'] }), await listed({})]).toEqual([0, 0, 1]);
  });
});
