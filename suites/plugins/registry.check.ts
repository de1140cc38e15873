/**
 * Plugins through the run's registry (spec/2 §4.5 pull, with X-Registry-Auth): a plugin the check
 * makes (dockerd's POST /plugins/create from a context of config.json and rootfs/) and pushes
 * (POST /plugins/{name}/push) under the user's namespace and removes, then pulls back as the spec
 * pulls: `name` is the plugin with its tag, no body. The name is the check's own, so no two checks
 * meet on it. These need a registry, not Docker Hub, so they run on any target given `--registry`.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { pullAnswerSchema } from '../../harness/schemas/plugin-schemas.ts';
import { streamError, streamMessages } from '../image-steps.ts';
import { passwordAuth, registryUser } from '../registry-steps.ts';
import { buildTar } from '../tar-files.ts';
import { listedAs, specPull, uniquePluginName } from './plugin-steps.ts';

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
  title: 'a plugin pulled by name and tag from a registry with X-Registry-Auth is listed disabled, with that tag and the description, interface and entrypoint of its config in its Manifest',
  spec: '2 §2.6, §4.5',
  quote: ['| POST /plugins/pull | name (plugin name with optional tag, default latest); header X-Registry-Auth | none | 200 array of {Name, Description, Value} | not shown |', '| GET /plugins | | none | 200 array of plugin | 200, 500 |', 'After installation a plugin can be enabled with POST /plugins/{plugin name}/enable.', 'Fields: Id, Name, Tag, Active (boolean), Config {Mounts, Env, Args, Devices}, Manifest {ManifestVersion, Description, Documentation, Interface {Types (array), Socket}, Entrypoint, Workdir, User, Network {Type}, Capabilities, Mounts, Devices, Env, Args}.'],
  since: '1.24',
  tags: ['state'],
  requires: ['registry'],
  timeoutMs: REGISTRY_TIMEOUT_MS,
  covers: ['2:POST /plugins/pull', '2:POST /plugins/pull:header:X-Registry-Auth'],
}, async (context) => {
  const remote = await pushedPlugin(context);
  // the spec's pull: `name` is the plugin to pull, with its tag; no body
  const res = await specPull(context, remote, passwordAuth(registryUser(context)));
  if (res.status === 200) context.make.plugin(remote);
  context.expect(res.status, `POST /plugins/pull?name=${remote}: ${res.describe()}`).toBe(200);
  const repository = remote.slice(0, remote.lastIndexOf(':'));
  const listed = (await listedAs(context, repository)).concat(await listedAs(context, remote));
  context.expect(
    listed.map(({ Tag, Active, Manifest }) => ({ Tag, Active, Description: (Manifest as Partial<typeof CONFIG> | undefined)?.Description, Types: Manifest?.Interface?.Types, Entrypoint: (Manifest as Partial<typeof CONFIG> | undefined)?.Entrypoint })),
    `the items of ${remote} in GET /plugins`,
  ).toEqual([{ Tag: 'v1', Active: false, Description: CONFIG.Description, Types: CONFIG.Interface.Types, Entrypoint: CONFIG.Entrypoint }]);
});

check('plugins.registry.pull-answer', {
  title: "POST /plugins/pull of a registry's plugin answers 200 with an array of {Name, Description, Value}",
  spec: '2 §2.6, §4.5',
  quote: ['| POST /plugins/pull | name (plugin name with optional tag, default latest); header X-Registry-Auth | none | 200 array of {Name, Description, Value} | not shown |', 'The pull response is an array of objects with Name, Description, Value (array of string).'],
  since: '1.24',
  tags: ['schema'],
  requires: ['registry'],
  timeoutMs: REGISTRY_TIMEOUT_MS,
  covers: ['2:POST /plugins/pull'],
}, async (context) => {
  const remote = await pushedPlugin(context);
  const res = await specPull(context, remote, passwordAuth(registryUser(context)));
  if (res.status === 200) context.make.plugin(remote);
  context.expect(res.status, `POST /plugins/pull?name=${remote}: ${res.describe()}`).toBe(200);
  assertMatchesSchema(res.json(), pullAnswerSchema, `the pull answer at ${context.version}`);
});
