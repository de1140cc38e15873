/**
 * The volume events (spec/2 §6): create and destroy as a volume is made and removed, mount and
 * unmount over the life of a container that uses it; the attributes dockerd gives them (driver;
 * container and destination on mount and unmount, read/write on mount), which the spec does not
 * list, in docker-level checks. Read from GET
 * /events as it streams, from a time the daemon itself gave (GET /info SystemTime), so that no event
 * falls between subscribing and acting.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import type { StreamedResponse } from '../../harness/client/streamed-response.ts';
import { eventsFromNow, eventsUntil as daemonEventsUntil, type EventView } from '../daemon-events.ts';
import { containerWithBinds, ownVolume, runToEnd, uniqueVolumeName } from './volume-steps.ts';

/** spec/2 §6, §2.9, §4.2: the volume events, their shape, the filters that pick them */
const VOLUME_EVENTS = [
  'GET /events streams events as they occur.',
  '| volume | create, mount, unmount, destroy |',
  'Each event is a JSON object of the shape in 2.9.',
  'Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}',
  'type=<string> (container, image, volume, network or daemon), volume=<string>',
];

/** The volume events of `name` from the daemon's present second on, read as they stream. */
function volumeEvents(context: CheckContext, name: string): Promise<StreamedResponse> {
  return eventsFromNow(context, { type: ['volume'], volume: [name] });
}

/** Waits until an event with action `last` has arrived; returns the events of `name` so far. */
function eventsUntil(stream: StreamedResponse, name: string, last: string): Promise<EventView[]> {
  return daemonEventsUntil(stream, (event) => event.Actor?.ID === name, (event) => event.Action === last);
}

/** Creates and removes a volume with its events streaming; returns the events of that volume up to its destroy. */
async function createDestroyEvents(context: CheckContext): Promise<{ name: string; events: EventView[] }> {
  const name = uniqueVolumeName(context);
  const stream = await volumeEvents(context, name);
  try {
    await ownVolume(context, {}, name);
    context.expect((await context.engine.delete(`/volumes/${name}`)).status, 'DELETE /volumes/{name} status').toBe(204);
    return { name, events: await eventsUntil(stream, name, 'destroy') };
  } finally {
    stream.close();
  }
}

/**
 * Creates and runs a container that binds a volume read-only at /data with the volume's events
 * streaming from before the container is created (the spec does not say whether mount comes at create
 * or at start); returns the container and the mount and unmount events.
 */
async function mountEvents(context: CheckContext): Promise<{ name: string; id: string; events: EventView[] }> {
  const name = await ownVolume(context);
  const stream = await volumeEvents(context, name);
  try {
    const id = await containerWithBinds(context, [`${name}:/data:ro`], { Cmd: ['true'] });
    await runToEnd(context, id);
    const events = await eventsUntil(stream, name, 'unmount');
    return { name, id, events: events.filter((event) => event.Action === 'mount' || event.Action === 'unmount') };
  } finally {
    stream.close();
  }
}

check('volumes.events.create-destroy', {
  title: 'creating a volume emits create and removing it destroy, each a volume event with the volume as actor',
  spec: '2 §2.9, §4.2, §6',
  quote: VOLUME_EVENTS,
  since: '1.18',
  tags: ['stream', 'state'],
  covers: ['2:GET /events', '2:GET /events:query:filters.volume'],
}, async (context) => {
  const { name, events } = await createDestroyEvents(context);
  const seen = events.map((event) => ({ Type: event.Type, Action: event.Action, ID: event.Actor?.ID }));
  context.expect(seen, `the events of volume ${name}`).toEqual([
    { Type: 'volume', Action: 'create', ID: name },
    { Type: 'volume', Action: 'destroy', ID: name },
  ]);
});

check('volumes.events.driver-attribute', {
  title: 'the create and destroy events of a volume carry its driver as the attribute driver, as dockerd has them',
  spec: '2 §6',
  // §6 rule 1 gives the attributes of container and network events only.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['stream'],
}, async (context) => {
  const { name, events } = await createDestroyEvents(context);
  context.expect(events.map((event) => ({ Action: event.Action, driver: event.Actor?.Attributes?.driver })), `the events of volume ${name}`).toEqual([
    { Action: 'create', driver: 'local' },
    { Action: 'destroy', driver: 'local' },
  ]);
});

check('volumes.events.mount-unmount', {
  title: 'a container that uses a volume emits mount and then unmount over its life, volume events with the volume as actor',
  spec: '2 §2.9, §4.2, §6',
  quote: VOLUME_EVENTS,
  since: '1.18',
  // a container is created, run and waited for inside the check, then the events waited for: slow daemons need more than the default 30 s
  timeoutMs: 45_000,
  tags: ['stream', 'state'],
  covers: ['2:GET /events', '2:GET /events:query:filters.volume'],
}, async (context) => {
  const { name, events } = await mountEvents(context);
  const seen = events.map((event) => ({ Type: event.Type, Action: event.Action, ID: event.Actor?.ID }));
  // How many times a daemon mounts the volume over the container's life the spec does not say: a mount first, an unmount after it.
  const actions = seen.map((event) => event.Action);
  const outcome = { volumeEvents: seen.every((event) => event.Type === 'volume' && event.ID === name), first: actions[0], unmountAfterMount: actions.indexOf('unmount') > 0 };
  context.expect(outcome, `the mount and unmount events of volume ${name}: ${JSON.stringify(seen)}`).toEqual({ volumeEvents: true, first: 'mount', unmountAfterMount: true });
});

check('volumes.events.mount-attributes', {
  title: 'mount carries the container, destination, driver and read/write, unmount the container and driver, as dockerd has them',
  spec: '2 §6',
  // §6 rule 1 gives the attributes of container and network events only.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  // a container is created, run and waited for inside the check, then the events waited for: slow daemons need more than the default 30 s
  timeoutMs: 45_000,
  tags: ['stream'],
}, async (context) => {
  const { name, id, events } = await mountEvents(context);
  const seen = events.map((event) => {
    const { container, destination, driver, 'read/write': readWrite } = event.Actor?.Attributes ?? {};
    return { Action: event.Action, container, driver, ...(event.Action === 'mount' && { destination, readWrite }) };
  });
  context.expect(seen, `the mount and unmount events of volume ${name}`).toEqual([
    { Action: 'mount', container: id, driver: 'local', destination: '/data', readWrite: 'false' },
    { Action: 'unmount', container: id, driver: 'local' },
  ]);
});
