/**
 * POST /containers/prune, /images/prune, /volumes/prune, /networks/prune and GET /system/df: Docker's
 * endpoints of API 1.25, which the spec does not describe. dockerd 20.10 serves them at every version
 * prefix, and so does the reference. Filters are dockerd's: `until` (not for volumes), `label`,
 * `label!`, and `dangling` for images; an empty list of deleted objects is null, as dockerd sends it
 * (but for volumes, which it sends as []).
 */
import type { DiskUsage } from '../model/system/disk-usage.ts';
import { diskUsage } from '../model/system/disk-usage.ts';
import { InvalidParameterError } from '../model/common/errors.ts';
import type { PruneFilters } from '../model/system/prune.ts';
import { checkedDangling } from '../model/volumes/volume-list-filters.ts';
import { containerSummary } from './container-views.ts';
import { checkFilterNames, parseFiltersQuery, type Filters } from './filters-query.ts';
import { imageSummary } from './image-views.ts';
import type { AnswerShape } from './personality.ts';
import { sendJson } from './replies.ts';
import type { Route, RouteContext } from './route-table.ts';
import { parseUnixTime } from './unix-time-query.ts';
import { volumeView } from './volume-views.ts';

/** Go's time.ParseDuration units, in nanoseconds. */
const DURATION_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION = /^(\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/;

/** dockerd's GetTimestamp: Unix seconds, a duration back from now (`10m`), or an RFC 3339 date. */
export function untilTime(text: string, now: Date): Date {
  if (/^-?\d+(\.\d+)?$/.test(text)) return parseUnixTime(text) as Date;
  if (DURATION.test(text)) {
    let milliseconds = 0;
    for (const [, amount, unit] of text.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) milliseconds += Number(amount) * (DURATION_UNITS[unit ?? 's'] ?? 0);
    return new Date(now.getTime() - milliseconds);
  }
  const date = Date.parse(text);
  if (Number.isNaN(date)) throw new InvalidParameterError(`failed to parse value as time or duration: "${text}"`);
  return new Date(date);
}

function pruneFilters(filters: Filters, now: Date): PruneFilters {
  const until = filters.until;
  if (until !== undefined && until.length > 1) throw new InvalidParameterError('more than one until filter specified');
  return {
    ...(until?.[0] !== undefined && { until: untilTime(until[0], now) }),
    ...(filters.label && { label: filters.label }),
    ...(filters['label!'] && { notLabel: filters['label!'] }),
  };
}

function filtersOf({ query }: RouteContext, applied: readonly string[]): Filters {
  const filters = parseFiltersQuery(query.get('filters'));
  checkFilterNames(filters, applied);
  return filters;
}

function nullWhenEmpty<T>(items: T[]): T[] | null {
  return items.length === 0 ? null : items;
}

/** Images keep their names; Containers and SharedSize are counted here (the list shows -1). */
function diskUsageView(usage: DiskUsage, shape: AnswerShape, now: Date): Record<string, unknown> {
  return {
    LayersSize: usage.layersSize,
    Images: usage.images.map(({ image, containers, sharedSize }) => ({ ...imageSummary(image, image, shape, true), SharedSize: sharedSize, Containers: containers })),
    // dockerd leaves SizeRw out while it is 0 (Go omitempty)
    Containers: usage.containers.map(({ container, size }) => {
      const { SizeRw, ...summary } = containerSummary(container, shape, now, size);
      return size.rw === 0 ? summary : { ...summary, SizeRw };
    }),
    Volumes: usage.volumes.map(({ volume, size, refCount }) => ({ ...volumeView(volume, shape), UsageData: { Size: size, RefCount: refCount } })),
  };
}

export const pruneRoutes: Route[] = [
  {
    method: 'POST',
    path: '/containers/prune',
    handle: async (context) => {
      const { model, response } = context;
      const pruned = await model.pruner.pruneContainers(pruneFilters(filtersOf(context, ['until', 'label', 'label!']), model.clock()));
      sendJson(response, 200, { ContainersDeleted: nullWhenEmpty(pruned.ContainersDeleted), SpaceReclaimed: pruned.SpaceReclaimed });
    },
  },
  {
    method: 'POST',
    path: '/images/prune',
    handle: async (context) => {
      const { model, response } = context;
      const filters = filtersOf(context, ['dangling', 'until', 'label', 'label!']);
      const dangling = checkedDangling(filters.dangling);
      const pruned = await model.pruner.pruneImages({ ...pruneFilters(filters, model.clock()), ...(dangling !== undefined && { dangling }) });
      sendJson(response, 200, { ImagesDeleted: nullWhenEmpty(pruned.ImagesDeleted), SpaceReclaimed: pruned.SpaceReclaimed });
    },
  },
  {
    method: 'POST',
    path: '/volumes/prune',
    handle: async (context) => {
      const { model, response } = context;
      const pruned = await model.pruner.pruneVolumes(pruneFilters(filtersOf(context, ['label', 'label!']), model.clock()));
      sendJson(response, 200, pruned);
    },
  },
  {
    method: 'POST',
    path: '/networks/prune',
    handle: async (context) => {
      const { model, response } = context;
      const pruned = await model.pruner.pruneNetworks(pruneFilters(filtersOf(context, ['until', 'label', 'label!']), model.clock()));
      sendJson(response, 200, { NetworksDeleted: nullWhenEmpty(pruned.NetworksDeleted) });
    },
  },
  {
    method: 'GET',
    path: '/system/df',
    handle: ({ model, response, version, dialect, personality }) => {
      const usage = diskUsage(model.images, model.containers, model.volumes);
      sendJson(response, 200, diskUsageView(usage, { version, dialect, personality }, model.clock()));
    },
  },
];
