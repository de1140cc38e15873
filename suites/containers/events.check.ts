/**
 * The events of one container's life, read from GET /events as a stream (spec/2 §6, spec/1 §6) the
 * way a client that runs a container and waits for its end reads them: subscribed before the start,
 * filtered to the container, until its destroy event. (The docker CLI's `run --rm` below API 1.30
 * waits for die, then removes the container and waits for destroy.)
 */
import { request } from 'undici';
import { check, type CheckContext } from '../../harness/check.ts';
import { ArrivingBytes } from '../../harness/client/arriving-bytes.ts';
import { encodeQuery, type Query } from '../../harness/client/engine-client.ts';
import type { ExchangeRecord } from '../../harness/client/api-response.ts';
import { connectionDispatcher } from '../../harness/client/shared-dispatcher.ts';
import { inspectContainer, startContainer } from '../container-steps.ts';

/** Bounds the whole subscription: a stream that delivers nothing more in this time has hung. */
const STREAM_TIMEOUT_MS = 20_000;

interface EventView {
  /** legacy name of Action */
  status?: string;
  Action?: string;
  Actor?: { ID: string; Attributes?: Record<string, string> };
}

/** The complete JSON lines received so far; a partial last line waits for its end. */
function eventsIn(received: Buffer): EventView[] {
  const text = received.toString('utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as EventView];
      } catch {
        return [];
      }
    });
}

function actionOf(event: EventView): string | undefined {
  return event.Action ?? event.status;
}

/** GET /events under the check's version prefix, read as it streams; resolves on the answer's headers. */
async function subscribe({ engine, session }: CheckContext, query: Query): Promise<{ status: number; events: ArrivingBytes; close: () => void }> {
  const prefix = engine.version === undefined ? '' : `/v${engine.version}`;
  const path = `${prefix}/events${encodeQuery(query)}`;
  const record: ExchangeRecord = { method: 'GET', path, mode: 'stream' };
  engine.exchanges.push(record);
  const { connection } = session.target;
  const { statusCode, body } = await request(new URL(path, connection.origin), {
    method: 'GET',
    dispatcher: connectionDispatcher(connection),
    signal: AbortSignal.timeout(STREAM_TIMEOUT_MS),
  });
  record.status = statusCode;
  return { status: statusCode, events: new ArrivingBytes(body), close: () => body.destroy() };
}

check('containers.events.lifecycle', {
  title: 'GET /events filtered by type=container and the container id streams its create, start, die (with exitCode) and destroy',
  spec: '2 §6, §4.2, §2.9, 1 §4.1',
  quote: ['GET /events streams events as they occur.', '| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'a die event adds exitCode (string)', 'With since, events created since that timestamp are sent first, then the stream continues', '| GET /events | since (timestamp; show events since then and keep streaming), until (timestamp; stop after), filters | none | 200 `application/json`, chunked stream of events | 200, 500 |', 'Event filters: container=<string>, event=<string>, image=<string>, label=<string> (image and container labels), type=<string> (container, image, volume, network or daemon)', 'Actor {ID (string), Attributes (map string to string)}', 'status (string, legacy)', '| DELETE /containers/{id_or_name} | v (remove associated volumes, default false), force (kill then remove, default false) | none | 204 | 204, 400, 404, 409, 500 |', '| POST /containers/{id_or_name}/start |', '204 no body | 204, 304, 404, 500 |'],
  since: '1.18',
  tags: ['stream', 'state'],
  covers: ['2:GET /events', '2:GET /events:query:filters.type', '2:GET /events:query:filters.container'],
}, async (context) => {
  const { engine, expect, make, session } = context;
  const id = await make.container({ Image: session.fixtureImage, Cmd: ['sh', '-c', 'exit 4'] });
  // From the second the container was created: its create event comes from the kept history.
  const { Created } = await inspectContainer<{ Created: string }>(context, id);
  const since = Math.floor(Date.parse(Created) / 1000);
  const subscription = await subscribe(context, { since, filters: JSON.stringify({ type: ['container'], container: [id] }) });
  try {
    expect(subscription.status, 'GET /events status').toBe(200);
    const sawAction = (action: string) => (received: Buffer) => eventsIn(received).some((event) => actionOf(event) === action);
    await startContainer(context, id);
    const died = await subscription.events.waitFor(sawAction('die'));
    expect(died, `a die event arrived once the container exited (received ${JSON.stringify(eventsIn(subscription.events.received).map(actionOf))})`).toBe(true);
    const removed = await engine.delete(`/containers/${id}`);
    expect(removed.status, 'DELETE /containers/{id} status').toBe(204);
    await subscription.events.waitFor(sawAction('destroy'));
    const events = eventsIn(subscription.events.received);
    const seen = {
      actions: events.map(actionOf),
      actors: [...new Set(events.map((event) => event.Actor?.ID))],
      exitCode: events.find((event) => actionOf(event) === 'die')?.Actor?.Attributes?.exitCode,
    };
    expect(seen, `events streamed for the container: ${JSON.stringify(seen)}`).toEqual({
      actions: ['create', 'start', 'die', 'destroy'],
      actors: [id],
      exitCode: '4',
    });
  } finally {
    subscription.close();
  }
});
