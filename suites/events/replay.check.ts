/**
 * `since` and `until` of GET /events (spec/2 §6 rule 4): since replays the events from that time and
 * then goes on streaming; until ends the stream at that time, so since and until both in the past
 * answer the window and end at once; since after until finds nothing to send. Times are the daemon's.
 */
import { check } from '../../harness/check.ts';
import { openStream, splitJsonObjects } from '../../harness/client/streamed-response.ts';
import { startContainer } from '../container-steps.ts';
import { actionName, daemonSeconds, eventsUntil, secondPassed, type EventView } from '../daemon-events.ts';

const STREAM_END_MS = 10_000;

function actions(events: EventView[]): (string | undefined)[] {
  return events.map(actionName);
}

check('events.since.replays-then-streams', {
  title: 'with since, the events since that time come first and the stream then goes on with new ones',
  spec: '2 §6',
  quote: ['With since, events created since that timestamp are sent first, then the stream continues; with until, streaming stops at that timestamp.'],
  since: '1.18',
  tags: ['stream'],
  covers: ['2:GET /events:query:since'],
}, async (context) => {
  const since = await daemonSeconds(context);
  const id = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] });
  const stream = await openStream(context.engine, context.session.target.connection, '/events', { since, filters: JSON.stringify({ container: [id] }) });
  try {
    context.expect(stream.status, 'GET /events status').toBe(200);
    const replayed = await eventsUntil(stream, () => true, (event) => event.Action === 'create');
    context.expect(actions(replayed), 'the events replayed from before the request').toContain('create');
    await startContainer(context, id);
    const all = await eventsUntil(stream, () => true, (event) => event.Action === 'start');
    context.expect({ actions: actions(all).filter((action) => action === 'create' || action === 'start'), ended: stream.ended }, 'the stream after the start').toEqual({ actions: ['create', 'start'], ended: false });
  } finally {
    stream.close();
  }
});

check('events.until.ends-stream', {
  title: 'with until a few seconds ahead, the stream carries the events since `since` and ends by itself at until',
  spec: '2 §6',
  quote: ['With since, events created since that timestamp are sent first, then the stream continues; with until, streaming stops at that timestamp.'],
  since: '1.18',
  tags: ['stream'],
  covers: ['2:GET /events:query:until'],
}, async (context) => {
  const since = await daemonSeconds(context);
  const id = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] });
  const query = { since, until: (await daemonSeconds(context)) + 2, filters: JSON.stringify({ container: [id] }) };
  const stream = await openStream(context.engine, context.session.target.connection, '/events', query);
  try {
    context.expect(stream.status, 'GET /events status').toBe(200);
    const ended = await stream.endsWithin(STREAM_END_MS);
    context.expect(ended, `the stream ended after until=${query.until} (received ${JSON.stringify(stream.received.toString('utf8').slice(0, 300))})`).toBe(true);
    context.expect(actions(stream.jsonObjects<EventView>()), 'the events of the stream').toEqual(['create']);
  } finally {
    stream.close();
  }
});

check('events.since-until.past-window', {
  title: 'with since and until both past, the answer is the events of that window and ends at once',
  spec: '2 §6, §4.2',
  quote: ['With since, events created since that timestamp are sent first, then the stream continues; with until, streaming stops at that timestamp.', '| GET /events | since (timestamp; show events since then and keep streaming), until (timestamp; stop after), filters | none | 200 `application/json`, chunked stream of events | 200, 500 |'],
  since: '1.18',
  tags: ['stream'],
  covers: ['2:GET /events:query:since', '2:GET /events:query:until', '2:GET /events:status:200'],
}, async (context) => {
  const since = await daemonSeconds(context);
  const id = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] });
  // A window that has closed: until is a second the daemon's clock has already left.
  const past = await secondPassed(context);
  const res = await context.engine.get('/events', { query: { since, until: past, filters: JSON.stringify({ container: [id] }) }, signal: AbortSignal.timeout(STREAM_END_MS) });
  context.expect(res.status, 'GET /events status').toBe(200);
  const events = splitJsonObjects(res.text()).map((text) => JSON.parse(text) as EventView);
  context.expect(actions(events), 'the events of the window').toEqual(['create']);
});

check('events.since-after-until', {
  title: 'since after until is refused (500, the error status of GET /events, or 400, bad parameter) or answered 200 with no event, ending at once',
  spec: '2 §6, §4.2',
  quote: ['With since, events created since that timestamp are sent first, then the stream continues; with until, streaming stops at that timestamp.', '| GET /events | since (timestamp; show events since then and keep streaming), until (timestamp; stop after), filters | none | 200 `application/json`, chunked stream of events | 200, 500 |'],
  since: '1.18',
  tags: ['error'],
  covers: ['2:GET /events:query:since', '2:GET /events:query:until'],
}, async (context) => {
  // Rule 4 read literally: nothing happened since `since` (ahead), and the stream stops at `until` (now).
  // A refusal may be the row's 500 or the 400 that spec/1 §7.2 gives a bad parameter (the row lists no 400).
  const now = await daemonSeconds(context);
  const stream = await openStream(context.engine, context.session.target.connection, '/events', { since: now + 10, until: now });
  try {
    const ended = await stream.endsWithin(STREAM_END_MS);
    const answer = stream.status === 200 ? { status: 200, ended, events: stream.jsonObjects<EventView>().length } : { status: stream.status };
    context.expect([{ status: 400 }, { status: 500 }, { status: 200, ended: true, events: 0 }], `the answer to since after until (received ${JSON.stringify(stream.received.toString('utf8').slice(0, 300))})`).toContainEqual(answer);
  } finally {
    stream.close();
  }
});

check('events.since-after-until.refused-400', {
  title: 'since after until is refused with 400, as dockerd refuses it',
  spec: '2 §6',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['error'],
}, async (context) => {
  const now = await daemonSeconds(context);
  const res = await context.engine.get('/events', { query: { since: now + 10, until: now }, signal: AbortSignal.timeout(STREAM_END_MS) });
  context.expect(res.status, `GET /events status: ${res.text().slice(0, 200)}`).toBe(400);
});
