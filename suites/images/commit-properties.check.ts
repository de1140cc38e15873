/**
 * POST /commit's `pause` as a property (spec/2 §4.1, §6): "pause the container during commit" is all
 * the spec says of it, and what shows it over the API is the event stream, which has pause and unpause
 * among the container actions and streams events as they occur. Each case commits a running container
 * of its own with pause written in one of the boolean forms of spec/1 §4 and reads the container's
 * events while it does: a true pause shows pause, then unpause; a false one shows neither. Left out of
 * the oracle: where the commit event falls between them, and what a pause left out means (the spec
 * gives no default).
 */
import fc from 'fast-check';
import { check } from '../../harness/check.ts';
import { assertProperty } from '../../harness/property-check.ts';
import { startedContainer } from '../container-steps.ts';
import { actionName, eventsFromNow, receivedEvents } from '../daemon-events.ts';
import { commit } from '../image-steps.ts';

/** Commits per run: each starts a container and commits it, a second or so on a live daemon. */
const COMMIT_RUNS = 4;

const pauseForm = fc.constantFrom(
  { form: '1', pause: true }, { form: 'True', pause: true }, { form: 'true', pause: true },
  { form: '0', pause: false }, { form: 'False', pause: false }, { form: 'false', pause: false },
);

check('images.commit.property-pause-events', {
  title: 'commit of a running container with pause true (1, True, true) emits its pause and then unpause events; with pause false (0, False, false) neither',
  spec: '2 §4.1, §6, 1 §4',
  quote: [
    '| POST /commit |',
    'pause (boolean, pause the container during commit)',
    '201 {Id} | 201, 404, 500 |',
    'GET /events streams events as they occur.',
    '| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |',
    'Boolean query parameters accept 1, True, true or 0, False, false.',
  ],
  since: '1.18',
  tags: ['property', 'state'],
  timeoutMs: 55_000,
  covers: ['2:POST /commit:query:pause', '2:POST /commit:status:201', '2:GET /events:query:filters.container'],
}, async (context) => {
  const { expect, version } = context;
  await assertProperty(context, fc.asyncProperty(pauseForm, async ({ form, pause }) => {
    const container = await startedContainer(context, { Cmd: ['sleep', '300'] });
    const stream = await eventsFromNow(context, { container: [container] });
    let actions: (string | undefined)[];
    const what = `POST /v${version}/commit?container={id}&pause=${form} of a running container`;
    try {
      const res = await commit(context, container, { query: { pause: form } });
      expect(res.status, `${what}: status`).toBe(201);
      // The commit event (and, pausing, the unpause) ends what the commit shows.
      const done = () => {
        const seen = receivedEvents(stream).map(actionName);
        return seen.includes('commit') && (!pause || seen.includes('unpause'));
      };
      await stream.waitFor(done);
      actions = stream.jsonObjects<Parameters<typeof actionName>[0]>().map(actionName);
    } finally {
      stream.close();
    }
    const told = `${what}: the container's events ${JSON.stringify(actions)}`;
    expect(actions.includes('commit'), `${told} include commit`).toBe(true);
    const paused = actions.filter((action) => action === 'pause' || action === 'unpause');
    expect(paused, `${told}: pause and unpause events`).toEqual(pause ? ['pause', 'unpause'] : []);
  }), {
    numRuns: COMMIT_RUNS,
    // a true pause first, on every seed: a daemon that ignores pause fails every run
    examples: [[{ form: 'true', pause: true }]],
  }, 0);
});
