/**
 * The plugin endpoints over a real server: the spec's shape at 1.24 and dockerd's fields besides it
 * from 1.25, pull by the spec's `name` or by dockerd's `remote` and `name` (with a privileges body and
 * X-Registry-Auth, even a malformed one), the statuses of enable, disable and remove, and 404s with
 * the version's error body.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../../reference/serve.ts';
import { httpCaller, type Call } from '../http-client.ts';

let reference: RunningReference;
let call: Call;

beforeAll(async () => {
  reference = await startReference({ dialect: 'docker' });
  call = httpCaller(reference.engineUrl);
});
afterAll(() => reference.close());
beforeEach(() => reference.reset());

async function pulled(query: string, init: { json?: unknown; headers?: Record<string, string> } = {}): Promise<{ Name: string; Description: string; Value: string[] }[]> {
  const res = await call('POST', `/v1.25/plugins/pull?${query}`, init);
  expect(res.status, res.text).toBe(200);
  return res.json();
}

describe('the plugin per version', () => {
  test('1.24: Name and Tag apart, Active, Config the settings (env as NAME=value), Manifest v0', async () => {
    await pulled('name=vieux/sshfs');
    const [plugin] = (await call('GET', '/v1.24/plugins')).json<Record<string, Record<string, unknown>>[]>();
    expect(plugin).toMatchObject({ Name: 'vieux/sshfs', Tag: 'latest', Active: false, Manifest: { ManifestVersion: 'v0', Interface: { Types: ['docker.volumedriver/1.0'], Socket: 'sshfs.sock' } } });
    expect(plugin?.Config).toMatchObject({ Env: ['DEBUG=0'], Args: null, Devices: [{ Path: '/dev/fuse' }] });
    expect(Object.keys(plugin ?? {}).sort()).toEqual(['Active', 'Config', 'Id', 'Manifest', 'Name', 'Tag']);
  });

  test('1.25: besides, Enabled, Settings, PluginReference, and Config the manifest as dockerd shows it', async () => {
    await pulled('remote=vieux/sshfs:latest&name=mine');
    const res = await call('GET', '/v1.25/plugins/mine/json');
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({
      Name: 'mine',
      Tag: 'latest',
      Active: false,
      Enabled: false,
      PluginReference: 'docker.io/vieux/sshfs:latest',
      Settings: { Env: ['DEBUG=0'] },
      Config: { Description: 'sshFS plugin for Docker', Env: [{ Name: 'DEBUG', Value: '0', Settable: ['value'] }], Linux: { Capabilities: ['CAP_SYS_ADMIN'] } },
    });
  });
});

describe('pull', () => {
  test('answers the privileges granted, as GET /plugins/privileges tells them, with or without a body and credentials', async () => {
    const privileges = await call('GET', '/v1.25/plugins/privileges?remote=vieux/sshfs');
    expect(privileges.json<{ Name: string }[]>().map((privilege) => privilege.Name)).toEqual(['network', 'mount', 'mount', 'device', 'capabilities']);
    expect(await pulled('remote=vieux/sshfs&name=a', { json: privileges.json(), headers: { 'X-Registry-Auth': 'e30=' } })).toEqual(privileges.json());
    expect(await pulled('remote=vieux/sshfs&name=b', { headers: { 'X-Registry-Auth': 'not base64 json' } })).toEqual(privileges.json());
  });

  test('a body that is not a list of privileges is 400; a name the catalogue lacks is 404; a taken name 409', async () => {
    expect((await call('POST', '/v1.25/plugins/pull?name=vieux/sshfs', { json: { not: 'a list' } })).status).toBe(400);
    expect((await call('POST', '/v1.25/plugins/pull?name=nobody/nothing')).status).toBe(404);
    expect((await call('GET', '/v1.25/plugins/privileges?remote=nobody/nothing')).status).toBe(404);
    await pulled('name=vieux/sshfs');
    expect((await call('POST', '/v1.25/plugins/pull?remote=vieux/sshfs&name=vieux/sshfs:latest')).status).toBe(409);
  });
});

describe('enable, disable, remove', () => {
  test('200s, with 409 for enabling twice and for removing an enabled plugin without force', async () => {
    await pulled('name=vieux/sshfs');
    expect((await call('POST', '/v1.25/plugins/vieux/sshfs/enable?timeout=30')).status).toBe(200);
    expect((await call('GET', '/v1.25/plugins/vieux/sshfs:latest/json')).json()).toMatchObject({ Active: true, Enabled: true });
    expect((await call('POST', '/v1.25/plugins/vieux/sshfs/enable')).status).toBe(409);
    expect((await call('DELETE', '/v1.25/plugins/vieux/sshfs')).status).toBe(409);
    expect((await call('POST', '/v1.25/plugins/vieux/sshfs/disable')).status).toBe(200);
    expect((await call('DELETE', '/v1.25/plugins/vieux/sshfs')).status).toBe(200);
    expect((await call('GET', '/v1.25/plugins')).json()).toEqual([]);
  });

  test('an unknown plugin is 404 everywhere, with a JSON body from 1.24 and plain text before', async () => {
    for (const [method, path] of [['GET', '/plugins/none/json'], ['POST', '/plugins/none/enable'], ['POST', '/plugins/none/disable'], ['DELETE', '/plugins/none']] as const) {
      const current = await call(method, `/v1.24${path}`);
      expect([current.status, current.json()]).toEqual([404, { message: 'plugin "none" not found' }]);
      const old = await call(method, `/v1.23${path}`);
      expect([old.status, old.text]).toEqual([404, 'plugin "none" not found\n']);
    }
  });
});
