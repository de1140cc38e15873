/** Image endpoints (spec/2 §4.1): list and inspect, for now. */
import { InvalidParameterError } from '../model/errors.ts';
import { parseBooleanQuery } from './boolean-query.ts';
import { checkFilterNames, parseFiltersQuery } from './filters-query.ts';
import { imageInspect, imageSummary } from './image-views.ts';
import { sendJson } from './replies.ts';
import type { Route } from './route-table.ts';

/** dockerd's image list filters; those it knows that the reference does not apply yet answer 501. */
const LIST_FILTERS = { applied: ['dangling', 'label', 'reference'], notYet: ['before', 'since'] } as const;

export const imageRoutes: Route[] = [
  {
    method: 'GET',
    path: '/images/json',
    handle: ({ response, model, query, version }) => {
      const filters = parseFiltersQuery(query.get('filters'));
      checkFilterNames(filters, LIST_FILTERS);
      // `filter` is the older spelling of a reference filter.
      const legacyFilter = query.get('filter');
      const reference = [...(filters.reference ?? []), ...(legacyFilter ? [legacyFilter] : [])];
      const images = model.images.list({
        dangling: danglingFilter(filters.dangling ?? []),
        label: filters.label,
        reference: reference.length > 0 ? reference : undefined,
      });
      const withDigests = parseBooleanQuery(query.get('digests'), false);
      sendJson(response, 200, images.map((image) => imageSummary(image, version, withDigests)));
    },
  },
  {
    method: 'GET',
    path: '/images/{name*}/json',
    handle: ({ response, model, params, version }) => sendJson(response, 200, imageInspect(model.images.find(params.name ?? ''), version)),
  },
];

/** dockerd takes `true`/`1` and `false`/`0` only, and several values must agree; none is no filter. */
function danglingFilter(values: string[]): boolean | undefined {
  const wanted = new Set(
    values.map((value) => {
      const word = value.toLowerCase();
      if (word === 'true' || word === '1') return true;
      if (word === 'false' || word === '0') return false;
      throw new InvalidParameterError(`Invalid filter 'dangling=${value}'`);
    }),
  );
  if (wanted.size > 1) throw new InvalidParameterError('Invalid filter: dangling cannot be both true and false');
  return [...wanted][0];
}
