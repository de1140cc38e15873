/**
 * Secrets (Docker's, from API 1.25; the spec leaves the secret resource "not shown"): create (201
 * {ID}), the list with dockerd's filters (names, name, id, label), inspect, update at a `version`
 * (labels only), remove (204). Outside a swarm each answers dockerd's 503; dockerd serves them at
 * every version prefix, as the reference does.
 */
import { checkFilterNames, parseFiltersQuery } from './filters-query.ts';
import { readJsonBody } from './json-body.ts';
import { sendEmpty, sendJson } from './replies.ts';
import type { Route } from './route-table.ts';
import { parseSecretSpec, parseSecretVersion } from './swarm-bodies.ts';
import { secretView } from './swarm-views.ts';

const LIST_FILTERS = ['id', 'label', 'name', 'names'] as const;

export const secretRoutes: Route[] = [
  {
    method: 'GET',
    path: '/secrets',
    handle: ({ response, model, query, personality }) => {
      const filters = parseFiltersQuery(query.get('filters'));
      checkFilterNames(filters, LIST_FILTERS);
      sendJson(response, 200, personality.unordered(model.secrets.list(filters)).map(secretView));
    },
  },
  {
    method: 'POST',
    path: '/secrets/create',
    handle: async ({ request, response, model }) => {
      const secret = model.secrets.create(parseSecretSpec(await readJsonBody(request)));
      sendJson(response, 201, { ID: secret.meta.id });
    },
  },
  {
    method: 'GET',
    path: '/secrets/{id}',
    handle: ({ response, model, params }) => sendJson(response, 200, secretView(model.secrets.find(params.id ?? ''))),
  },
  {
    method: 'POST',
    path: '/secrets/{id}/update',
    handle: async ({ request, response, model, params, query }) => {
      const secret = model.secrets.find(params.id ?? '');
      const version = parseSecretVersion(query.get('version'));
      model.secrets.update(secret, version, parseSecretSpec(await readJsonBody(request)));
      sendEmpty(response, 200);
    },
  },
  {
    method: 'DELETE',
    path: '/secrets/{id}',
    handle: ({ response, model, params }) => {
      model.secrets.remove(model.secrets.find(params.id ?? ''));
      sendEmpty(response, 204);
    },
  },
];
