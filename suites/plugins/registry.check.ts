/**
 * Plugins through the run's registry (spec/2 §4.5 pull, with X-Registry-Auth): a plugin the check
 * makes (dockerd's POST /plugins/create from a context of config.json and rootfs/) and pushes
 * (POST /plugins/{name}/push) under the user's namespace, then pulls back under a local name. These
 * need a registry, not Docker Hub, so they run on any target given `--registry`.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { privilegeListSchema } from '../../harness/schemas/plugin-schemas.ts';
import { streamError, streamMessages } from '../image-steps.ts';
import { passwordAuth, registryUser } from '../registry-steps.ts';
import { buildTar } from '../tar-files.ts';
import { inspectPlugin, listedAs, privilegesOf, pullPlugin, uniquePluginName } from './plugin-steps.ts';

/** A volume plugin that asks for the host network and one capability; never enabled, so never run. */
const CONFIG = {
  Description: 'a plugin of a shipshape check',
  Documentation: 'https://example.com/shipshape',
  Interface: { Types: ['docker.volumedriver/1.0'], Socket: 'shipshape.sock' },
  Entrypoint: ['/plugin'],
  Network: { Type: 'host' },
  Linux: { Capabilities: ['CAP_SYS_ADMIN'] },
};

const REGISTRY_TIMEOUT_MS = 50_000;

/** A plugin made from CONFIG and pushed to `<registry>/<user>/<unique>:v1`, then removed here; returns its remote name. */
async function pushedPlugin(context: CheckContext): Promise<string> {
  const { engine, expect, make } = context;
  const user = registryUser(context);
  const remote = `${user.host}/${user.username}/${uniquePluginName(context)}:v1`;
  const build = await buildTar([
    { kind: 'file', name: 'config.json', data: JSON.stringify(CONFIG) },
    { kind: 'directory', name: 'rootfs' },
    { kind: 'file', name: 'rootfs/plugin', data: '#!/bin/sh\n' },
  ]);
  const created = await engine.post('/plugins/create', { query: { name: remote }, body: build, headers: { 'content-type': 'application/x-tar' } });
  expect(created.status, `POST /plugins/create?name=${remote}: ${created.describe()}`).toBeGreaterThanOrEqual(200);
  expect(created.status, `POST /plugins/create?name=${remote}: ${created.describe()}`).toBeLessThan(300);
  make.plugin(remote);
  const pushed = await engine.post(`/plugins/${remote}/push`, { headers: passwordAuth(user) });
  expect(pushed.status, `push: ${pushed.describe()}`).toBe(200);
  expect(streamError(streamMessages(pushed)), `the push of ${remote} failed: ${pushed.describe()}`).toBeUndefined();
  const removed = await engine.delete(`/plugins/${remote}`, { query: { force: 1 } });
  expect(removed.status, `DELETE /plugins/${remote}: ${removed.describe()}`).toBe(200);
  return remote;
}

check('plugins.registry.pull-installs', {
  title: 'a plugin pulled from a registry with X-Registry-Auth is installed disabled, with the description, interface and entrypoint of its config',
  spec: '2 §4.5',
  since: '1.24',
  tags: ['state'],
  requires: ['registry'],
  timeoutMs: REGISTRY_TIMEOUT_MS,
  covers: ['2:POST /plugins/pull', '2:POST /plugins/pull:header:X-Registry-Auth'],
}, async (context) => {
  const remote = await pushedPlugin(context);
  const name = uniquePluginName(context);
  const res = await pullPlugin(context, name, remote, passwordAuth(registryUser(context)));
  context.expect(res.status, `POST /plugins/pull?remote=${remote}: ${res.describe()}`).toBe(200);
  const plugin = await inspectPlugin(context, name);
  // the spec's Manifest (1.24) or dockerd's Config (1.25 on) holds the author's config
  const manifest = (plugin.Manifest ?? (plugin as { Config?: typeof CONFIG }).Config) as Partial<typeof CONFIG> | undefined;
  context.expect(
    { Description: manifest?.Description, Types: manifest?.Interface?.Types, Entrypoint: manifest?.Entrypoint },
    `the config of ${name} as GET /plugins/${name}/json shows it`,
  ).toEqual({ Description: CONFIG.Description, Types: CONFIG.Interface.Types, Entrypoint: CONFIG.Entrypoint });
  context.expect((await listedAs(context, name)).map(({ Tag, Active }) => ({ Tag, Active })), `the items of ${name} in GET /plugins`).toEqual([{ Tag: 'latest', Active: false }]);
});

check('plugins.registry.pull-answer', {
  title: "POST /plugins/pull of a registry's plugin answers 200 with the privileges granted, as GET /plugins/privileges lists them",
  spec: '2 §4.5',
  since: '1.24',
  tags: ['schema'],
  requires: ['registry'],
  timeoutMs: REGISTRY_TIMEOUT_MS,
  covers: ['2:POST /plugins/pull'],
}, async (context) => {
  const remote = await pushedPlugin(context);
  const auth = passwordAuth(registryUser(context));
  const res = await pullPlugin(context, uniquePluginName(context), remote, auth);
  context.expect(res.status, `POST /plugins/pull?remote=${remote}: ${res.describe()}`).toBe(200);
  assertMatchesSchema(res.json(), privilegeListSchema, `the pull answer at ${context.version}`);
  context.expect(res.json(), 'the pull answer against GET /plugins/privileges').toEqual(await privilegesOf(context, remote, auth));
});
