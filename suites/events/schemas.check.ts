/**
 * The shape of an event per API version (spec/2 §2.9): Type, Action, Actor {ID, Attributes}, time,
 * timeNano from 1.21, and for container events the legacy status, id and from, which repeat Action,
 * Actor.ID and the image.
 */
import { check } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { eventSchema } from '../../harness/schemas/event-schemas.ts';
import { eventsDuring } from '../daemon-events.ts';

check('events.schema.container', {
  title: 'a container event has the event fields of the version, its legacy fields repeat Action, Actor.ID and the image, and timeNano (from 1.21) falls in the second of time',
  spec: '2 §2.9',
  since: '1.18',
  tags: ['schema'],
  covers: ['2:GET /events', '2:GET /events:status:200', '2:version-rule:1.21:events-time-nano'],
}, async (context) => {
  const name = context.make.uniqueName('c');
  let id = '';
  const events = await eventsDuring(context, { container: [name] }, async () => {
    id = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] }, name);
  }, (event) => event.Action === 'create');
  const event = events.find((candidate) => candidate.Action === 'create');
  context.expect(event, `the create event of ${name}`).toBeDefined();
  assertMatchesSchema(event, eventSchema(context.version), `the create event at ${context.version}`);
  const nanoSecond = event?.timeNano === undefined ? event?.time : Math.floor(event.timeNano / 1e9);
  context.expect({ status: event?.status, id: event?.id, from: event?.from, second: nanoSecond }, 'legacy fields and timeNano').toEqual({
    status: 'create', id, from: context.session.fixtureImage, second: event?.time,
  });
});
