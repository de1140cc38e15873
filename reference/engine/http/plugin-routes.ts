/**
 * Plugin endpoints (spec/2 §4.5, with what dockerd adds: privileges, inspect, disable, remove,
 * create and push). dockerd serves them at every version prefix, and so does the reference; only the
 * plugin's shape changes (plugin-views.ts). Pull takes the spec's `name`, or dockerd's `remote` (what
 * to pull) with `name` as the local name; it answers the spec's array of granted privileges (dockerd
 * 1.13's; later ones stream progress, which Docker's Go clients get), naming the plugin in dockerd's
 * Docker-Plugin-Name header. A privileges body, as dockerd wants one, is read and not
 * judged. X-Registry-Auth carries the credentials for a registry's plugin; the catalogue's are public.
 * Push streams progress as an image push does. Enable takes dockerd's `timeout` and does not need it.
 */
import { readBody } from '../../request-limits.ts';
import { InvalidParameterError } from '../model/common/errors.ts';
import { checkedImageReference } from '../model/images/image-reference.ts';
import { pushAnnouncement } from '../model/images/image-registry.ts';
import { readPluginContext } from '../model/plugins/plugin-context.ts';
import type { Plugin } from '../model/plugins/plugin.ts';
import { pullPlugin, pushPlugin, remotePluginPrivileges } from '../model/plugins/plugin-distribution.ts';
import { PLUGIN_PRIVILEGES } from './body-structs.ts';
import { readJsonBody } from './json-body.ts';
import { decodeGo } from './json-fields.ts';
import { listRoute } from './list-route.ts';
import { pluginView, privilegesView } from './plugin-views.ts';
import { registryAuth, registryCredentials } from './registry-auth-header.ts';
import { streamProgress } from './registry-progress.ts';
import { sendEmpty, sendJson } from './replies.ts';
import type { Route } from './route-table.ts';

/**
 * The docker CLI and Go clients (`Docker-Client/<version>`) read a plugin pull's answer as dockerd
 * 20.10's JSON progress stream, which `docker plugin install` cannot do without; they get that
 * stream. Every other client gets the spec's array of granted privileges (spec/2 §4.5).
 */
const DOCKER_GO_CLIENT = /^Docker-Client\//;

/** dockerd's first and last progress lines of a plugin pull that completed (the reference has no layer progress to tell). */
function pullProgress(plugin: Plugin): string[] {
  return [`${plugin.tag}: Pulling from ${plugin.repository}`, `Status: Downloaded newer image for ${plugin.name}`];
}

export const pluginRoutes: Route[] = [
  listRoute({ path: '/plugins', list: ({ model }) => model.plugins.list(), view: ({ version }) => (plugin) => pluginView(plugin, version) }),
  {
    method: 'GET',
    path: '/plugins/privileges',
    handle: async ({ request, response, model, query, version }) => {
      const credentials = registryCredentials(registryAuth(request.headers['x-registry-auth']), version);
      sendJson(response, 200, privilegesView(await remotePluginPrivileges(model.plugins, model.registries, query.get('remote') ?? '', credentials)));
    },
  },
  {
    method: 'POST',
    path: '/plugins/pull',
    handle: async ({ request, response, model, query, version }) => {
      // The privileges the client accepts are decoded as dockerd decodes them, not compared: a client's mistake
      // is a 400 in dockerd's words (dockerd answers 500; the spec shows no statuses here).
      try {
        decodeGo(await readJsonBody(request), PLUGIN_PRIVILEGES);
      } catch (error) {
        throw error instanceof InvalidParameterError ? new InvalidParameterError(`failed to parse privileges: ${error.message}`) : error;
      }
      const credentials = registryCredentials(registryAuth(request.headers['x-registry-auth']), version);
      const remote = query.get('remote');
      const pulled = remote
        ? await pullPlugin(model.plugins, model.registries, remote, query.get('name') ?? undefined, credentials)
        : await pullPlugin(model.plugins, model.registries, query.get('name') ?? '', undefined, credentials);
      // dockerd names the plugin it installed in a header: `docker plugin install` enables it by that name
      response.setHeader('Docker-Plugin-Name', pulled.plugin.name);
      if (!DOCKER_GO_CLIENT.test(request.headers['user-agent'] ?? '')) return sendJson(response, 200, privilegesView(pulled.privileges));
      await streamProgress(response, async (report) => {
        for (const text of pullProgress(pulled.plugin)) report({ kind: 'message', text });
      });
    },
  },
  {
    method: 'POST',
    path: '/plugins/create',
    handle: async ({ request, response, model, query }) => {
      const { manifest, rootfs } = await readPluginContext(await readBody(request, 'tar'));
      model.plugins.create(query.get('name') ?? '', manifest, rootfs);
      sendEmpty(response, 204);
    },
  },
  {
    method: 'POST',
    path: '/plugins/{name*}/push',
    handle: async ({ request, response, model, params, version }) => {
      const plugin = model.plugins.find(params.name ?? '');
      const credentials = registryCredentials(registryAuth(request.headers['x-registry-auth']), version);
      await streamProgress(response, async (report) => {
        report({ kind: 'message', text: pushAnnouncement(checkedImageReference(plugin.name)) });
        await pushPlugin(model.plugins, model.registries, plugin.id, credentials, report);
      });
    },
  },
  {
    method: 'GET',
    path: '/plugins/{name*}/json',
    handle: ({ response, model, params, version }) => {
      sendJson(response, 200, pluginView(model.plugins.find(params.name ?? ''), version));
    },
  },
  {
    method: 'POST',
    path: '/plugins/{name*}/enable',
    handle: ({ response, model, params }) => {
      model.plugins.enable(params.name ?? '');
      sendEmpty(response, 200);
    },
  },
  {
    method: 'POST',
    path: '/plugins/{name*}/disable',
    handle: ({ response, model, params }) => {
      model.plugins.disable(params.name ?? '');
      sendEmpty(response, 200);
    },
  },
  {
    method: 'DELETE',
    path: '/plugins/{name*}',
    handle: ({ response, model, params, query, personality }) => {
      model.plugins.remove(params.name ?? '', personality.booleanQuery(query.get('force'), false));
      sendEmpty(response, 200);
    },
  },
];
