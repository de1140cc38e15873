/**
 * The GET list routes (containers, images, image search and history, volumes, networks, plugins,
 * services, tasks, nodes, secrets, configs) are one handler: read `filters` (a JSON map, spec/1 §4.1,
 * spec/2 §4), refuse a name the endpoint does not apply (400, dockerd's "Invalid filter"), ask the
 * model, order the items as the personality does where the spec fixes no order, and show each in
 * the view of the request's version. What differs per route (extra query parameters, the view, the
 * body around the array) comes in as functions; the version rules stay in the views.
 */
import { checkFilterNames, parseFiltersQuery, type Filters } from './filters-query.ts';
import { sendJson } from './replies.ts';
import type { Route, RouteContext } from './route-table.ts';

export interface ListRouteOptions<Item> {
  path: string;
  /** the filter names the endpoint applies; without it the route takes no `filters` (it reads none) */
  filterNames?: readonly string[];
  /** the model's items for the request, in dockerd's order; what it refuses (a 404 of a filter's object) is the answer */
  list: (context: RouteContext, filters: Filters) => readonly Item[];
  /** how one request shows an item: made once, after the list; without it an item is shown as it is */
  view?: (context: RouteContext, filters: Filters) => (item: Item) => unknown;
  /** the body around the shown items (default: the array itself) */
  answer?: (items: unknown[]) => unknown;
}

export function listRoute<Item>({ path, filterNames, list, view, answer }: ListRouteOptions<Item>): Route {
  return {
    method: 'GET',
    path,
    handle: (context) => {
      const filters = filterNames === undefined ? {} : parseFiltersQuery(context.query.get('filters'));
      if (filterNames !== undefined) checkFilterNames(filters, filterNames);
      const items = context.personality.unordered(list(context, filters));
      const show = view?.(context, filters);
      const shown: unknown[] = show === undefined ? items : items.map((item) => show(item));
      sendJson(context.response, 200, answer === undefined ? shown : answer(shown));
    },
  };
}
