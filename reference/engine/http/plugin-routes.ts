/**
 * Plugin endpoints (spec/2 §4.5, with what dockerd adds: privileges, inspect, disable, remove).
 * dockerd serves them at every version prefix, and so does the reference; only the plugin's shape
 * changes (plugin-views.ts). Pull takes the spec's `name`, or dockerd's `remote` (what to pull) with
 * `name` as the local name; it answers the spec's array of granted privileges. A privileges body, as
 * dockerd wants one, is read and not judged, and X-Registry-Auth is accepted and not needed: the
 * catalogue is public. Enable takes dockerd's `timeout` and does not need it.
 */
import { InvalidParameterError } from '../model/errors.ts';
import { parseBooleanQuery } from './boolean-query.ts';
import { readJsonBody } from './json-body.ts';
import { pluginView, privilegesView } from './plugin-views.ts';
import { sendEmpty, sendJson } from './replies.ts';
import type { Route } from './route-table.ts';

export const pluginRoutes: Route[] = [
  {
    method: 'GET',
    path: '/plugins',
    handle: ({ response, model, version }) => {
      sendJson(response, 200, model.plugins.list().map((plugin) => pluginView(plugin, version)));
    },
  },
  {
    method: 'GET',
    path: '/plugins/privileges',
    handle: ({ response, model, query }) => {
      sendJson(response, 200, privilegesView(model.plugins.privileges(query.get('remote') ?? '')));
    },
  },
  {
    method: 'POST',
    path: '/plugins/pull',
    handle: async ({ request, response, model, query }) => {
      const body = await readJsonBody(request);
      if (body !== undefined && !Array.isArray(body)) throw new InvalidParameterError('failed to parse privileges: the body is not an array');
      const remote = query.get('remote');
      const pulled = remote ? model.plugins.pull(remote, query.get('name') ?? undefined) : model.plugins.pull(query.get('name') ?? '');
      sendJson(response, 200, privilegesView(pulled.privileges));
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
    handle: ({ response, model, params, query }) => {
      model.plugins.remove(params.name ?? '', parseBooleanQuery(query.get('force'), false));
      sendEmpty(response, 200);
    },
  },
];
