/**
 * Steps the plugin checks take. Every check pulls the catalogue plugin under a local name of its own
 * (dockerd's `remote` for what to pull, `name` for what to call it): checks run in parallel, also
 * across versions, and a shared daemon may have the plugin already, so no two of them ever act on
 * the same plugin. The pull sends what a client sends: the privileges it was asked to grant, and
 * X-Registry-Auth. Each plugin goes with its check, forced off if still enabled. The spec-level checks
 * pull as the spec does instead (`name`, the plugin to pull, and no body), which cannot rename it: they
 * take turns on the catalogue plugin ({@link specPulledCatalogue}).
 */
import type { CheckContext } from '../../harness/check.ts';
import type { ApiResponse } from '../../harness/client/api-response.ts';

/** A real Docker Hub plugin, which the reference's catalogue simulates. */
export const CATALOGUE_PLUGIN = 'vieux/sshfs:latest';
export const CATALOGUE_NAME = 'vieux/sshfs';

/** An empty AuthConfig (`{}`), base64url: the catalogue plugin is public. */
const ANONYMOUS_AUTH = Buffer.from('{}').toString('base64url');

export interface PluginView {
  Id: string;
  Name: string;
  Tag: string;
  Active: boolean;
  Manifest?: { Interface?: { Types?: string[] } };
}

export interface PrivilegeView {
  Name: string;
  Description: string;
  Value: string[];
}

/** A plugin name of this run, which `shipshape cleanup` recognises; no tag (`latest` is implied). */
export function uniquePluginName({ make }: CheckContext): string {
  return make.uniqueName('p');
}

/** X-Registry-Auth for the catalogue plugin, which is public. */
export const ANONYMOUS_PLUGIN_AUTH = { 'X-Registry-Auth': ANONYMOUS_AUTH };

export async function privilegesOf({ engine, expect }: CheckContext, remote = CATALOGUE_PLUGIN, auth: Record<string, string> = ANONYMOUS_PLUGIN_AUTH): Promise<PrivilegeView[]> {
  const res = await engine.get('/plugins/privileges', { query: { remote }, headers: auth });
  expect(res.status, `GET /plugins/privileges?remote=${remote} status`).toBe(200);
  return res.json<PrivilegeView[]>();
}

/** POST /plugins/pull of `remote` as `name`, granting what it asks for; a plugin the target installed is removed after the check. */
export async function pullPlugin(context: CheckContext, name: string, remote = CATALOGUE_PLUGIN, auth: Record<string, string> = ANONYMOUS_PLUGIN_AUTH): Promise<ApiResponse> {
  const privileges = await privilegesOf(context, remote, auth);
  const res = await context.engine.post('/plugins/pull', { query: { remote, name }, json: privileges, headers: auth });
  if (res.status === 200) context.make.plugin(name);
  return res;
}

/** The catalogue plugin, pulled under `name` (a new name of the run by default); returns the name. */
export async function ownPlugin(context: CheckContext, name = uniquePluginName(context)): Promise<string> {
  const res = await pullPlugin(context, name);
  context.expect(res.status, 'POST /plugins/pull status').toBe(200);
  return name;
}

/** An own plugin, enabled; returns its name. */
export async function enabledPlugin(context: CheckContext): Promise<string> {
  const name = await ownPlugin(context);
  context.expect((await enablePlugin(context, name)).status, `POST /plugins/${name}/enable status`).toBe(200);
  return name;
}

/** POST /plugins/{name}/enable with the timeout dockerd needs (the docker CLI's; the spec shows no parameters). */
export function enablePlugin({ engine }: CheckContext, name: string): Promise<ApiResponse> {
  return engine.post(`/plugins/${name}/enable`, { query: { timeout: 30 } });
}

export async function inspectPlugin({ engine, expect }: CheckContext, name: string): Promise<PluginView> {
  const res = await engine.get(`/plugins/${name}/json`);
  expect(res.status, `GET /plugins/${name}/json status`).toBe(200);
  return res.json<PluginView>();
}

/** The spec's pull (spec/2 §4.5): `name` is the plugin to pull, with its tag or none; X-Registry-Auth; no body. */
export function specPull({ engine }: CheckContext, name: string, auth: Record<string, string> = ANONYMOUS_PLUGIN_AUTH): Promise<ApiResponse> {
  return engine.post('/plugins/pull', { query: { name }, headers: auth });
}

/** How long a spec-level check waits for another to give the catalogue plugin back. */
const CATALOGUE_WAIT_MS = 20_000;

/**
 * The catalogue plugin pulled as the spec pulls ({@link specPull}): under its own name, which every
 * spec-level check shares, so the plugin serves as a lock. While another check holds it (it is listed),
 * a refused pull is tried again until it is free; the answer that ends the wait is returned, the
 * plugin removed after the check.
 */
export async function specPulledCatalogue(context: CheckContext): Promise<ApiResponse> {
  const deadline = Date.now() + CATALOGUE_WAIT_MS;
  // a refusal while nobody holds the plugin is the answer, once confirmed (the holder may have just let go)
  let unheldRefusals = 0;
  for (;;) {
    const res = await specPull(context, CATALOGUE_PLUGIN);
    if (res.status === 200) {
      context.make.plugin(CATALOGUE_PLUGIN);
      return res;
    }
    const listed = await context.engine.get('/plugins');
    const held = (listed.status === 200 ? (listed.json<PluginView[] | null>() ?? []) : []).some((plugin) => plugin.Name === CATALOGUE_NAME || plugin.Name === CATALOGUE_PLUGIN);
    unheldRefusals = held ? 0 : unheldRefusals + 1;
    if (unheldRefusals >= 2 || Date.now() >= deadline) return res;
    await new Promise((resolve) => setTimeout(resolve, 200 + Math.floor(Math.random() * 300)));
  }
}

/** The items of GET /plugins named `name` (Name without its tag, as the spec shows it, or with it, as dockerd from 1.25). */
export async function listedAs({ engine, expect }: CheckContext, name: string): Promise<PluginView[]> {
  const res = await engine.get('/plugins');
  expect(res.status, 'GET /plugins status').toBe(200);
  return res.json<PluginView[]>().filter((plugin) => plugin.Name === name || plugin.Name === `${name}:latest`);
}
