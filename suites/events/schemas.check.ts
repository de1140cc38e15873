/**
 * The shape of an event per API version (spec/2 §2.9): Type, Action, Actor {ID, Attributes}, time,
 * timeNano from 1.21, and for container events the legacy status, id and from, `from` the image name.
 * As dockerd fills them, the legacy status and id repeat Action and Actor.ID, and timeNano is time in
 * nanoseconds (a docker-level check: §2.9 gives them no such relation).
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { eventSchema } from '../../harness/schemas/event-schemas.ts';
import { eventsDuring, type EventView } from '../daemon-events.ts';

/** The create event of a new container of the check's own: the stream is filtered by type only (the container has no id yet), the event picked by its actor. */
async function createEvent(context: CheckContext): Promise<{ id: string; event?: EventView }> {
  let id = '';
  const isCreate = (event: EventView) => event.Action === 'create' && event.Actor?.ID === id;
  const events = await eventsDuring(context, { type: ['container'] }, async () => {
    id = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] });
  }, isCreate);
  const event = events.find(isCreate);
  context.expect(event, `the create event of ${id}`).toBeDefined();
  return { id, event };
}

check('events.schema.container', {
  title: 'a container event has the event fields of the version (timeNano from 1.21), the legacy status, id and from, from being the image name',
  spec: '2 §2.9',
  quote: ['Fields: status (string, legacy), id (string, legacy), from (string, image name, legacy), Type (container, image, volume, network, daemon), Action (string), Actor {ID (string), Attributes (map string to string)}, time (integer, Unix seconds), timeNano (integer, from 1.21).'],
  since: '1.18',
  tags: ['schema'],
  covers: ['2:GET /events', '2:GET /events:status:200', '2:version-rule:1.21:events-time-nano'],
}, async (context) => {
  const { event } = await createEvent(context);
  assertMatchesSchema(event, eventSchema(context.version), `the create event at ${context.version}`);
  context.expect(event?.from, 'from, the image name').toBe(context.session.fixtureImage);
});

check('events.schema.container-legacy-values', {
  title: 'the legacy status and id of a container event repeat Action and Actor.ID, and timeNano falls in the second of time (as dockerd)',
  spec: '2 §2.9',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['schema'],
}, async (context) => {
  const { id, event } = await createEvent(context);
  const nanoSecond = event?.timeNano === undefined ? event?.time : Math.floor(event.timeNano / 1e9);
  context.expect({ status: event?.status, id: event?.id, second: nanoSecond }, 'legacy fields and timeNano').toEqual({ status: 'create', id, second: event?.time });
});
