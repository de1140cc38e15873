/**
 * Secrets and configs (Docker's: secrets from API 1.25, configs from 1.30; the spec leaves both "not
 * shown"): create (201 {ID}), the list with dockerd's filters (name, id, label; names for secrets), inspect, update
 * at a `version` (labels only), remove (204). Outside a swarm each answers dockerd's 503; dockerd 20.10
 * serves both at every version prefix, as the reference does. They differ in what inspect shows: a
 * config's data, never a secret's.
 */
import type { SwarmData, SwarmDataKind } from '../model/swarm/swarm-data-store.ts';
import { readJsonBody } from './json-body.ts';
import { listRoute } from './list-route.ts';
import { sendEmpty, sendJson } from './replies.ts';
import type { Route, RouteContext } from './route-table.ts';
import { parseSwarmDataSpec, parseSwarmDataVersion } from './swarm-bodies.ts';
import { configView, secretView } from './swarm-views.ts';

/** dockerd 20.10's list filters: `names` for secrets only */
const LIST_FILTERS: Record<SwarmDataKind, readonly string[]> = { secret: ['id', 'label', 'name', 'names'], config: ['id', 'label', 'name'] };

/** The routes of one kind, under `/secrets` or `/configs`. */
function swarmDataRoutes(kind: SwarmDataKind, view: (object: SwarmData) => Record<string, unknown>): Route[] {
  const store = ({ model }: RouteContext) => (kind === 'secret' ? model.secrets : model.configs);
  const base = `/${kind}s`;
  return [
    listRoute({ path: base, filterNames: LIST_FILTERS[kind], list: (context, filters) => store(context).list(filters), view: () => view }),
    {
      method: 'POST',
      path: `${base}/create`,
      handle: async (context) => {
        const created = store(context).create(parseSwarmDataSpec(kind, await readJsonBody(context.request)));
        sendJson(context.response, 201, { ID: created.meta.id });
      },
    },
    {
      method: 'GET',
      path: `${base}/{id}`,
      handle: (context) => sendJson(context.response, 200, view(store(context).find(context.params.id ?? ''))),
    },
    {
      method: 'POST',
      path: `${base}/{id}/update`,
      handle: async (context) => {
        const found = store(context).find(context.params.id ?? '');
        const version = parseSwarmDataVersion(kind, context.query.get('version'));
        store(context).update(found, version, parseSwarmDataSpec(kind, await readJsonBody(context.request)));
        sendEmpty(context.response, 200);
      },
    },
    {
      method: 'DELETE',
      path: `${base}/{id}`,
      handle: (context) => {
        store(context).remove(store(context).find(context.params.id ?? ''));
        sendEmpty(context.response, 204);
      },
    },
  ];
}

export const secretRoutes = swarmDataRoutes('secret', secretView);
export const configRoutes = swarmDataRoutes('config', configView);
