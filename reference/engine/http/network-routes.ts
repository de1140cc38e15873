/**
 * Network endpoints (spec/2 §4.4): list, inspect, create, connect, disconnect, remove. Served at every
 * version prefix, as dockerd serves them, though the spec has them from 1.21; the removal answers 200
 * before 1.22 and 204 from then on.
 */
import { before } from '../../../protocol/versions.ts';
import { readJsonBody } from './json-body.ts';
import { listRoute } from './list-route.ts';
import { parseNetworkConnectBody, parseNetworkCreateBody, parseNetworkDisconnectBody } from './network-body.ts';
import { networkView } from './network-views.ts';
import { sendEmpty, sendJson } from './replies.ts';
import type { Route } from './route-table.ts';

/** dockerd's network list filters (dockerd 20.10 takes `dangling` at every version, as the reference does). */
const LIST_FILTERS = ['dangling', 'driver', 'id', 'label', 'name', 'scope', 'type'] as const;

export const networkRoutes: Route[] = [
  listRoute({
    path: '/networks',
    filterNames: LIST_FILTERS,
    list: ({ model }, filters) => model.networks.list(filters),
    view: (context) => (network) => networkView(network, context),
  }),
  {
    method: 'POST',
    path: '/networks/create',
    handle: async ({ request, response, model, version, personality }) => {
      const body = parseNetworkCreateBody(await readJsonBody(request), { version, personality });
      const { network, warning } = model.networks.create(body.options);
      sendJson(response, 201, { Id: network.id, Warning: [warning, body.warning].filter(Boolean).join('; ') });
    },
  },
  {
    method: 'GET',
    path: '/networks/{id}',
    handle: ({ response, model, params, version, personality }) => {
      sendJson(response, 200, networkView(model.networks.find(params.id ?? ''), { version, personality }));
    },
  },
  {
    method: 'POST',
    path: '/networks/{id}/connect',
    handle: async ({ request, response, model, params }) => {
      const { container, endpoint } = parseNetworkConnectBody(await readJsonBody(request));
      model.networkConnections.connect(params.id ?? '', container, endpoint);
      sendEmpty(response, 200);
    },
  },
  {
    method: 'POST',
    path: '/networks/{id}/disconnect',
    handle: async ({ request, response, model, params }) => {
      const { container, force } = parseNetworkDisconnectBody(await readJsonBody(request));
      model.networkConnections.disconnect(params.id ?? '', container, force);
      sendEmpty(response, 200);
    },
  },
  {
    method: 'DELETE',
    path: '/networks/{id}',
    handle: ({ response, model, params, version }) => {
      model.networks.remove(model.networks.find(params.id ?? ''));
      sendEmpty(response, before(version, '1.22') ? 200 : 204);
    },
  },
];
