/**
 * The swarm and its nodes in Docker's shapes (the spec leaves them "not shown"): GET /swarm, the node
 * list (dockerd's filters id, name, role, membership) and one node. Outside a swarm, dockerd's 503.
 */
import { checkFilterNames, parseFiltersQuery } from './filters-query.ts';
import { sendJson } from './replies.ts';
import type { Route } from './route-table.ts';
import { nodeView, swarmView } from './swarm-views.ts';

const NODE_FILTERS = { applied: ['id', 'membership', 'name', 'role'], notYet: ['label', 'node.label'] } as const;

export const swarmRoutes: Route[] = [
  {
    method: 'GET',
    path: '/swarm',
    handle: ({ response, model }) => sendJson(response, 200, swarmView(model.swarm.cluster)),
  },
  {
    method: 'GET',
    path: '/nodes',
    handle: ({ response, model, query, personality }) => {
      const filters = parseFiltersQuery(query.get('filters'));
      checkFilterNames(filters, NODE_FILTERS);
      sendJson(response, 200, personality.unordered(model.swarm.listNodes(filters)).map(nodeView));
    },
  },
  {
    method: 'GET',
    path: '/nodes/{id}',
    handle: ({ response, model, params }) => sendJson(response, 200, nodeView(model.swarm.findNode(params.id ?? ''))),
  },
];
