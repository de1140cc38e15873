/**
 * GET /events read as it streams, from the daemon's present second (GET /info SystemTime): `since`
 * is judged by the daemon's clock, and starting from it no event falls between subscribing and acting.
 * A daemon keeps only its last few hundred events for `since`, so checks subscribe before they act
 * rather than replay what happened a while ago: on a busy daemon that history turns over in seconds.
 */
import type { CheckContext } from '../harness/check.ts';
import { openStream, type StreamedResponse } from '../harness/client/streamed-response.ts';
import { until } from '../harness/wait-until.ts';

export interface EventView {
  /** legacy name of Action (container and image events) */
  status?: string;
  /** legacy name of Actor.ID (container and image events) */
  id?: string;
  /** legacy: the image of a container event */
  from?: string;
  Type?: string;
  Action?: string;
  Actor?: { ID?: string; Attributes?: Record<string, string> };
  time?: number;
  timeNano?: number;
}

/** The filters of GET /events in either form: lists of values, or (from 1.22 clients) maps of value to true. */
export type EventFilters = Record<string, string[] | Record<string, boolean>>;

/** The daemon's clock in whole Unix seconds. */
export async function daemonSeconds({ engine, expect }: CheckContext): Promise<number> {
  const info = await engine.get('/info');
  expect(info.status, 'GET /info status').toBe(200);
  return Math.floor(Date.parse(info.json<{ SystemTime: string }>().SystemTime) / 1000);
}

/**
 * A second of the daemon's clock that has passed and that ends a window holding everything done so
 * far: `until` counts whole seconds, so it waits for the clock to leave the present second.
 */
export async function secondPassed(context: CheckContext): Promise<number> {
  const now = await daemonSeconds(context);
  return until(() => daemonSeconds(context), (seconds) => seconds > now, { what: `the daemon clock to leave second ${now}`, timeoutMs: 5_000 });
}

export async function eventsFromNow(context: CheckContext, filters: EventFilters): Promise<StreamedResponse> {
  const since = await daemonSeconds(context);
  const stream = await openStream(context.engine, context.session.target.connection, '/events', { since, filters: JSON.stringify(filters) });
  context.expect(stream.status, 'GET /events status').toBe(200);
  return stream;
}

/** The events received so far, or none while what came is not JSON: for wait predicates, which must not throw. */
export function receivedEvents(stream: StreamedResponse): EventView[] {
  try {
    return stream.jsonObjects<EventView>();
  } catch {
    return [];
  }
}

/** Waits until an event `until` accepts has arrived; returns the events so far that `of` keeps. */
export async function eventsUntil(stream: StreamedResponse, of: (event: EventView) => boolean, until: (event: EventView) => boolean): Promise<EventView[]> {
  await stream.waitFor(() => receivedEvents(stream).filter(of).some(until));
  return stream.jsonObjects<EventView>().filter(of);
}

/**
 * The events `filters` lets through while `act` runs, up to the first that `last` accepts (or what had
 * come when the wait ran out). The stream is opened before `act` and closed whatever happens.
 */
export async function eventsDuring(context: CheckContext, filters: EventFilters, act: () => Promise<void>, last: (event: EventView) => boolean): Promise<EventView[]> {
  const stream = await eventsFromNow(context, filters);
  try {
    await act();
    return await eventsUntil(stream, () => true, last);
  } finally {
    stream.close();
  }
}

/** The action without what some carry after a colon (`exec_start: sh -c …` is `exec_start`). */
export function actionName(event: EventView): string | undefined {
  return event.Action?.split(':', 1)[0];
}
