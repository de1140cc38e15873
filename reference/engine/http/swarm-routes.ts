/**
 * The swarm and its nodes in Docker's shapes (the spec leaves them "not shown"): init (200 with the
 * node's id), join, leave, GET /swarm, update at a `version` (with token and unlock key rotations),
 * the unlock key and unlock, the node list (dockerd's filters id, name, role, membership, label, node.label), one node
 * and its update. Outside a swarm, dockerd's 503; dockerd serves them at every version prefix.
 */
import { parseBooleanQuery } from './boolean-query.ts';
import { readJsonBody } from './json-body.ts';
import { listRoute } from './list-route.ts';
import { sendEmpty, sendJson } from './replies.ts';
import type { Route } from './route-table.ts';
import { parseInitRequest, parseJoinRequest, parseNodeSpec, parseObjectVersion, parseSwarmSpec } from './swarm-bodies.ts';
import { nodeView, swarmView } from './swarm-views.ts';

const NODE_FILTERS = ['id', 'label', 'membership', 'name', 'node.label', 'role'] as const;

export const swarmRoutes: Route[] = [
  {
    method: 'GET',
    path: '/swarm',
    handle: ({ response, model }) => sendJson(response, 200, swarmView(model.swarm)),
  },
  {
    method: 'POST',
    path: '/swarm/init',
    handle: async ({ request, response, model }) => sendJson(response, 200, model.swarm.init(parseInitRequest(await readJsonBody(request)))),
  },
  {
    method: 'POST',
    path: '/swarm/join',
    handle: async ({ request, model }) => model.swarm.join(parseJoinRequest(await readJsonBody(request))),
  },
  {
    method: 'POST',
    path: '/swarm/leave',
    handle: ({ response, model, query }) => {
      model.swarm.leave(parseBooleanQuery(query.get('force'), false));
      sendEmpty(response, 200);
    },
  },
  {
    method: 'POST',
    path: '/swarm/update',
    handle: async ({ request, response, model, query }) => {
      const version = parseObjectVersion('swarm', query.get('version'));
      const rotate = (name: string) => parseBooleanQuery(query.get(name), false);
      model.swarm.update(version, parseSwarmSpec(await readJsonBody(request)), { workerToken: rotate('rotateWorkerToken'), managerToken: rotate('rotateManagerToken'), managerUnlockKey: rotate('rotateManagerUnlockKey') });
      sendEmpty(response, 200);
    },
  },
  {
    method: 'GET',
    path: '/swarm/unlockkey',
    handle: ({ response, model }) => sendJson(response, 200, { UnlockKey: model.swarm.unlockKey }),
  },
  {
    method: 'POST',
    path: '/swarm/unlock',
    handle: ({ model }) => model.swarm.unlock(),
  },
  listRoute({
    path: '/nodes',
    filterNames: NODE_FILTERS,
    list: ({ model }, filters) => model.swarm.listNodes(filters),
    view: ({ model }) => () => nodeView(model.swarm),
  }),
  {
    method: 'GET',
    path: '/nodes/{id}',
    handle: ({ response, model, params }) => {
      model.swarm.findNode(params.id ?? '');
      sendJson(response, 200, nodeView(model.swarm));
    },
  },
  {
    method: 'POST',
    path: '/nodes/{id}/update',
    handle: async ({ request, response, model, params, query }) => {
      const node = model.swarm.findNode(params.id ?? '');
      const version = parseObjectVersion('node', query.get('version'));
      model.swarm.updateNode(node, version, parseNodeSpec(await readJsonBody(request)));
      sendEmpty(response, 200);
    },
  },
];
