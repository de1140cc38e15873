/** Container endpoints (spec/1 §4.1): list, create, inspect, remove; the others in their own files. */
import { atLeast } from '../../../protocol/versions.ts';
import { InvalidParameterError } from '../model/common/errors.ts';
import { archiveRoutes } from './archive-routes.ts';
import { containerInspect, containerSummary } from './container-views.ts';
import { containerActionRoutes } from './container-action-routes.ts';
import { containerOutputRoutes } from './container-output-routes.ts';
import { parseCreateBody } from './create-container-body.ts';
import { validationRules } from './host-config-body.ts';
import { removeLink } from '../model/containers/container-links.ts';
import { readJsonBody } from './json-body.ts';
import { listRoute } from './list-route.ts';
import { sendEmpty, sendJson } from './replies.ts';
import { statsRoutes } from './stats-routes.ts';
import type { Route } from './route-table.ts';

/**
 * dockerd's container list filters, which dockerd 20.10 takes at every version; `isolation` is a
 * Windows daemon's and, as on dockerd for Linux, holds for every container.
 */
const LIST_FILTERS = ['id', 'name', 'label', 'status', 'exited', 'ancestor', 'before', 'since', 'volume', 'network', 'health', 'isolation', 'is-task', 'expose', 'publish'] as const;

export const containerRoutes: Route[] = [
  listRoute({
    path: '/containers/json',
    filterNames: LIST_FILTERS,
    list: ({ model, query, personality }, filters) => {
      // The since and before parameters (spec/1 §4.1) cut the list like the filters of those names,
      // and, unlike the filters, list non-running containers too on dockerd.
      const since = query.get('since') || undefined;
      const before = query.get('before') || undefined;
      if (since) filters.since = [...(filters.since ?? []), since];
      if (before) filters.before = [...(filters.before ?? []), before];
      return model.containers.list({
        all: personality.booleanQuery(query.get('all'), false) || (personality.sinceBeforeListAll && (since !== undefined || before !== undefined)),
        limit: parseLimit(query.get('limit')),
        filters,
      });
    },
    view: (context) => {
      const withSize = context.personality.booleanQuery(context.query.get('size'), false);
      const now = context.model.clock();
      return (container) => containerSummary(container, context, now, withSize ? context.model.containers.sizeOf(container) : undefined);
    },
  }),
  {
    method: 'POST',
    path: '/containers/create',
    handle: async ({ request, response, model, query, version, personality }) => {
      const { config, hostConfig, endpoints } = parseCreateBody(await readJsonBody(request), { version, personality });
      const container = model.containers.create({ name: query.get('name') || undefined, config, hostConfig, rules: validationRules(version) });
      model.networkConnections.configureCreated(container, endpoints);
      sendJson(response, 201, { Id: container.id, Warnings: [] });
    },
  },
  {
    method: 'GET',
    path: '/containers/{id*}/json',
    handle: ({ response, model, params, query, version, dialect, personality }) => {
      const container = model.containers.find(params.id ?? '');
      const withSize = atLeast(version, '1.21') && personality.booleanQuery(query.get('size'), false);
      sendJson(response, 200, containerInspect(container, { version, dialect, personality }, model.execs.openIdsOf(container), withSize ? model.containers.sizeOf(container) : undefined));
    },
  },
  ...containerActionRoutes,
  ...containerOutputRoutes,
  ...statsRoutes,
  ...archiveRoutes,
  {
    method: 'DELETE',
    path: '/containers/{id*}',
    handle: async ({ response, model, params, query, personality }) => {
      // `link`: the path names a link, `<container>/<alias>`, and only that link goes (dockerd's)
      if (personality.booleanQuery(query.get('link'), false)) {
        removeLink(model.containers, params.id ?? '');
        return sendEmpty(response, 204);
      }
      await model.lifecycle.remove(model.containers.find(params.id ?? ''), {
        force: personality.booleanQuery(query.get('force'), false),
        volumes: personality.booleanQuery(query.get('v'), false),
      });
      sendEmpty(response, 204);
    },
  },
];

/** An integer, as dockerd's strconv.Atoi reads it; absent or empty is no limit. */
function parseLimit(text: string | null): number | undefined {
  if (text === null || text === '') return undefined;
  if (!/^[+-]?\d+$/.test(text)) throw new InvalidParameterError(`invalid limit: ${JSON.stringify(text)} is not an integer`);
  return Number(text);
}
