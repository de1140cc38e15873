/**
 * The volume events (spec/2 §6): create and destroy as a volume is made and removed, mount and
 * unmount as a container that uses it starts and stops, with the attributes dockerd gives them
 * (driver; container and destination on mount and unmount, read/write on mount). Read from GET
 * /events as it streams, from a time the daemon itself gave (GET /info SystemTime), so that no event
 * falls between subscribing and acting.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import type { StreamedResponse } from '../../harness/client/streamed-response.ts';
import { eventsFromNow, eventsUntil as daemonEventsUntil, type EventView } from '../daemon-events.ts';
import { containerWithBinds, ownVolume, runToEnd, uniqueVolumeName } from './volume-steps.ts';

/** The volume events of `name` from the daemon's present second on, read as they stream. */
function volumeEvents(context: CheckContext, name: string): Promise<StreamedResponse> {
  return eventsFromNow(context, { type: ['volume'], volume: [name] });
}

/** Waits until an event with action `last` has arrived; returns the events of `name` so far. */
function eventsUntil(stream: StreamedResponse, name: string, last: string): Promise<EventView[]> {
  return daemonEventsUntil(stream, (event) => event.Actor?.ID === name, (event) => event.Action === last);
}

check('volumes.events.create-destroy', {
  title: 'creating a volume emits create and removing it destroy, each naming the volume and its driver',
  spec: '2 §6',
  since: '1.18',
  tags: ['stream', 'state'],
  covers: ['2:GET /events', '2:GET /events:query:filters.volume'],
}, async (context) => {
  const name = uniqueVolumeName(context);
  const stream = await volumeEvents(context, name);
  try {
    await ownVolume(context, {}, name);
    context.expect((await context.engine.delete(`/volumes/${name}`)).status, 'DELETE /volumes/{name} status').toBe(204);
    const events = await eventsUntil(stream, name, 'destroy');
    const seen = events.map((event) => ({ Type: event.Type, Action: event.Action, driver: event.Actor?.Attributes?.driver }));
    context.expect(seen, `the events of volume ${name}`).toEqual([
      { Type: 'volume', Action: 'create', driver: 'local' },
      { Type: 'volume', Action: 'destroy', driver: 'local' },
    ]);
  } finally {
    stream.close();
  }
});

check('volumes.events.mount-unmount', {
  title: 'a container that uses a volume emits mount as it starts (container, destination, read/write) and unmount as it stops (container)',
  spec: '2 §6',
  since: '1.18',
  tags: ['stream', 'state'],
  covers: ['2:GET /events', '2:GET /events:query:filters.volume'],
}, async (context) => {
  const name = await ownVolume(context);
  const id = await containerWithBinds(context, [`${name}:/data:ro`], { Cmd: ['true'] });
  const stream = await volumeEvents(context, name);
  try {
    await runToEnd(context, id);
    const events = await eventsUntil(stream, name, 'unmount');
    const seen = events.filter((event) => event.Action === 'mount' || event.Action === 'unmount').map((event) => {
      const { container, destination, driver, 'read/write': readWrite } = event.Actor?.Attributes ?? {};
      return { Action: event.Action, container, driver, ...(event.Action === 'mount' && { destination, readWrite }) };
    });
    context.expect(seen, `the mount and unmount events of volume ${name}`).toEqual([
      { Action: 'mount', container: id, driver: 'local', destination: '/data', readWrite: 'false' },
      { Action: 'unmount', container: id, driver: 'local' },
    ]);
  } finally {
    stream.close();
  }
});
