/**
 * GET /events read as it streams, from the daemon's present second (GET /info SystemTime): `since`
 * is judged by the daemon's clock, and starting from it no event falls between subscribing and acting.
 */
import type { CheckContext } from '../harness/check.ts';
import { openStream, type StreamedResponse } from '../harness/client/streamed-response.ts';

export interface EventView {
  Type?: string;
  Action?: string;
  Actor?: { ID?: string; Attributes?: Record<string, string> };
}

export async function eventsFromNow(context: CheckContext, filters: Record<string, string[]>): Promise<StreamedResponse> {
  const info = await context.engine.unversioned.get('/info');
  context.expect(info.status, 'GET /info status').toBe(200);
  const since = Math.floor(Date.parse(info.json<{ SystemTime: string }>().SystemTime) / 1000);
  const stream = await openStream(context.engine, context.session.target.connection, '/events', { since, filters: JSON.stringify(filters) });
  context.expect(stream.status, 'GET /events status').toBe(200);
  return stream;
}

/** Waits until an event `until` accepts has arrived; returns the events so far that `of` keeps. */
export async function eventsUntil(stream: StreamedResponse, of: (event: EventView) => boolean, until: (event: EventView) => boolean): Promise<EventView[]> {
  const events = () => stream.jsonObjects<EventView>().filter(of);
  await stream.waitFor(() => {
    try {
      return events().some(until);
    } catch {
      return false;
    }
  });
  return events();
}
