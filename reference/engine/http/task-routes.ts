/**
 * Task endpoints (spec/2 §4.6): the list with its filters and one task by id. The service and node
 * filters name their objects as dockerd takes them (name, id or id prefix; id or hostname) and an
 * unknown one is a 404, as on dockerd.
 */
import type { EngineModel } from '../model/engine-model.ts';
import type { TaskListFilters } from '../model/swarm/task-list-filters.ts';
import type { Filters } from './filters-query.ts';
import { listRoute } from './list-route.ts';
import { sendJson } from './replies.ts';
import type { Route } from './route-table.ts';
import { taskView } from './swarm-views.ts';

const LIST_FILTERS = ['desired-state', 'id', 'label', 'name', 'node', 'service'] as const;

export const taskRoutes: Route[] = [
  listRoute({
    path: '/tasks',
    filterNames: LIST_FILTERS,
    list: ({ model }, filters) => model.tasks.list(resolveFilters(model, filters)),
    view: () => taskView,
  }),
  {
    method: 'GET',
    path: '/tasks/{id}',
    handle: ({ response, model, params }) => sendJson(response, 200, taskView(model.tasks.find(params.id ?? ''))),
  },
];

function resolveFilters(model: EngineModel, filters: Filters): TaskListFilters {
  return {
    ...filters,
    ...(filters.service && { service: filters.service.map((reference) => model.services.find(reference).id) }),
    ...(filters.node && { node: filters.node.map((reference) => model.swarm.findNode(reference).id) }),
  };
}
