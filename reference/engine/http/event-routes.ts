/**
 * GET /events (spec/2 §6): the kept events from `since`, then the live ones, one JSON object per
 * line, until `until` or until the client goes away. Filters take both forms (lists and maps).
 */
import { atLeast } from '../../../protocol/versions.ts';
import type { EngineEvent } from '../model/events/event-bus.ts';
import { EVENT_FILTER_NAMES, matchesEventFilters } from '../model/events/event-filter.ts';
import { InvalidParameterError } from '../model/common/errors.ts';
import { checkFilterNames, parseFiltersQuery } from './filters-query.ts';
import type { Route, RouteContext } from './route-table.ts';
import { parseUnixTime } from './unix-time-query.ts';

/** Actions the API has from 1.24 (spec/2 §6 rule 5): a client of an older version never sees them. */
const ACTIONS_FROM_1_24 = ['reload', 'detach', 'exec_detach'];
/** Filters the API has from a version on (rule 5); before it they are unknown filters. */
const FILTERS_SINCE: Record<string, string> = { label: '1.21', daemon: '1.24' };

function visibleAt(event: EngineEvent, { version, personality }: RouteContext): boolean {
  return personality.shows(version, '1.24') || !ACTIONS_FROM_1_24.includes(event.action);
}

/**
 * dockerd's events.Message: the legacy status/id/from for containers (status/id for images), timeNano
 * from 1.21. Go leaves an empty id and from out: a prune's event has neither.
 */
function eventView(event: EngineEvent, { version, personality }: RouteContext): Record<string, unknown> {
  const milliseconds = event.time.getTime();
  const legacyId = event.actorId !== '' && { id: event.actorId };
  return {
    ...(event.type === 'container' && { status: event.action, ...legacyId, ...(legacyId && { from: event.attributes.image ?? '' }) }),
    ...(event.type === 'image' && { status: event.action, ...legacyId }),
    Type: event.type,
    Action: event.action,
    Actor: { ID: event.actorId, Attributes: event.attributes },
    time: Math.floor(milliseconds / 1000),
    ...(personality.shows(version, '1.21') && { timeNano: milliseconds * 1_000_000 }),
  };
}

function streamEvents(context: RouteContext): void {
  const { query, model, version, response } = context;
  const since = parseUnixTime(query.get('since'));
  const until = parseUnixTime(query.get('until'));
  if (since && until && until < since) {
    throw new InvalidParameterError(`\`since\` time (${query.get('since')}) cannot be after \`until\` time (${query.get('until')})`);
  }
  const filters = parseFiltersQuery(query.get('filters'));
  const known = EVENT_FILTER_NAMES.filter((name) => atLeast(version, FILTERS_SINCE[name] ?? '1.18'));
  checkFilterNames(filters, known);
  const inWindow = (event: EngineEvent) => until === undefined || event.time <= until;
  const send = (event: EngineEvent) => {
    if (inWindow(event) && visibleAt(event, context) && matchesEventFilters(event, filters)) response.write(`${JSON.stringify(eventView(event, context))}\n`);
  };

  response.writeHead(200, { 'Content-Type': 'application/json' });
  response.flushHeaders();
  for (const event of since ? model.events.since(since) : []) send(event);
  const now = model.clock();
  if (until && until <= now) {
    response.end();
    return;
  }
  const unsubscribe = model.events.subscribe(send);
  const timer = until && model.scheduler.setTimeout(() => response.end(), until.getTime() - now.getTime());
  response.once('close', () => {
    unsubscribe();
    if (timer) model.scheduler.clearTimeout(timer);
  });
}

export const eventRoutes: Route[] = [{ method: 'GET', path: '/events', handle: streamEvents }];
