/**
 * Plugins through the fixture registry of the same reference: a plugin created from a build context
 * (config.json and rootfs/), pushed with X-Registry-Auth, removed, then its privileges read and the
 * plugin pulled back from the registry with its config and files; an image is not a plugin; an
 * absent one is 404.
 */
import { describe, expect, it } from 'vitest';
import { writeTar, readTar } from '../../../reference/engine/filesystem/tar-io.ts';
import { messagesOf, PASSWORD_AUTH, useRegistryReference } from '../registry/registry-fixtures.ts';

const AUTH = { 'X-Registry-Auth': PASSWORD_AUTH };

const CONFIG = {
  Description: 'a volume plugin of the test',
  Documentation: 'https://example.com/doc',
  Interface: { Types: ['docker.volumedriver/1.0'], Socket: 'test.sock' },
  Entrypoint: ['/bin/plugin'],
  Network: { Type: 'host' },
  Linux: { Capabilities: ['CAP_SYS_ADMIN'] },
  Env: [{ Name: 'DEBUG', Description: '', Settable: ['value'], Value: '1' }],
};

const served = useRegistryReference();

async function createPlugin(name: string): Promise<void> {
  const context = await writeTar([
    { header: { name: 'config.json' }, data: Buffer.from(JSON.stringify(CONFIG)) },
    { header: { name: 'rootfs/bin/plugin', mode: 0o755 }, data: Buffer.from('#!/bin/sh\n') },
  ]);
  expect((await served.call('POST', `/v1.25/plugins/create?name=${name}`, { body: context, headers: { 'content-type': 'application/x-tar' } })).status).toBe(204);
}

// each registry call logs in with a password: a memory-hard KDF verification, slow on a loaded machine
describe('a plugin through the registry', { timeout: 30_000 }, () => {
  it('is created from a context, pushed, removed, and pulled back with its config and files', async () => {
    const name = `${served.host}/alice/plug:v1`;
    await createPlugin(name);
    const pushed = messagesOf((await served.call('POST', `/v1.25/plugins/${name}/push`, { headers: AUTH })).text);
    expect(pushed[0]).toEqual({ status: `The push refers to repository [${served.host}/alice/plug]` });
    expect(pushed.some((message) => 'error' in message)).toBe(false);
    expect(pushed.at(-1)?.aux).toMatchObject({ Tag: 'v1', Digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    expect((await served.call('DELETE', `/v1.25/plugins/${name}`)).status).toBe(200);

    const privileges = await served.call('GET', `/v1.25/plugins/privileges?remote=${name}`, { headers: AUTH });
    expect(privileges.json()).toEqual([
      { Name: 'network', Description: 'permissions to access a network', Value: ['host'] },
      { Name: 'capabilities', Description: 'list of additional capabilities required', Value: ['CAP_SYS_ADMIN'] },
    ]);
    const pulled = await served.call('POST', `/v1.25/plugins/pull?remote=${name}&name=local/plug`, { json: privileges.json(), headers: AUTH });
    expect([pulled.status, pulled.json()]).toEqual([200, privileges.json()]);
    const inspect = (await served.call('GET', '/v1.25/plugins/local/plug/json')).json<{ Name: string; Tag: string; Active: boolean; PluginReference: string; Config: Record<string, unknown>; Settings: { Env: string[] } }>();
    expect(inspect).toMatchObject({ Name: 'local/plug', Tag: 'latest', Active: false, PluginReference: name, Settings: { Env: ['DEBUG=1'] } });
    expect(inspect.Config).toMatchObject({ Description: CONFIG.Description, Entrypoint: CONFIG.Entrypoint, Interface: CONFIG.Interface, Network: CONFIG.Network });
    const plugin = served.reference.model.plugins.find('local/plug');
    expect((await readTar(plugin.rootfs)).map((member) => [member.header.name, member.data.toString()])).toEqual([['bin/plugin', '#!/bin/sh\n']]);
  });

  it('refuses an image as a plugin, and answers 404 for a plugin the registry lacks', async () => {
    expect((await served.call('POST', `/v1.25/images/busybox:latest/tag?repo=${served.host}/alice/notplug&tag=v1`)).status).toBe(201);
    expect((await served.call('POST', `/v1.25/images/${served.host}/alice/notplug/push?tag=v1`, { headers: AUTH })).status).toBe(200);
    const image = await served.call('POST', `/v1.25/plugins/pull?remote=${served.host}/alice/notplug:v1&name=np`, { json: [], headers: AUTH });
    expect([image.status, image.json<{ message: string }>().message]).toEqual([500, expect.stringContaining('is not a plugin')]);
    const absent = await served.call('POST', `/v1.25/plugins/pull?remote=${served.host}/alice/absent:v1&name=ab`, { json: [], headers: AUTH });
    expect(absent.status).toBe(404);
    const names = (await served.call('GET', '/v1.25/plugins')).json<Array<{ Name: string }>>().map((plugin) => plugin.Name);
    expect(names.filter((name) => name === 'np' || name === 'ab')).toEqual([]);
  });

  it('refuses a context without config.json', async () => {
    const context = await writeTar([{ header: { name: 'rootfs/x' }, data: Buffer.from('x') }]);
    const answer = await served.call('POST', '/v1.25/plugins/create?name=noconfig', { body: context });
    expect([answer.status, answer.json<{ message: string }>().message]).toEqual([400, 'the plugin context has no config.json']);
  });
});
