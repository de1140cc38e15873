/**
 * POST /containers/{id}/resize (spec/1 §4.1; its event: spec/2 §6.1). The §3 rule that a resize
 * "takes effect only after the container is restarted" has no check: the fixture command contract
 * has no command that reports the terminal size, so the size a process sees is not observable.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { createdContainer, startedContainer } from '../container-steps.ts';
import { eventsDuring } from '../daemon-events.ts';

const SIZE = { h: 40, w: 100 };
/** An id no daemon hands out. */
const UNKNOWN_CONTAINER = 'f'.repeat(64);

function runningTty(context: CheckContext): Promise<string> {
  return startedContainer(context, { Cmd: ['sleep', '300'], Tty: true });
}

check('containers.resize.tty', {
  title: 'resizing a running container that has a Tty answers 200 with an empty body',
  spec: '1 §4.1',
  quote: ['| POST /containers/{id_or_name}/resize | h (height), w (width), both in characters | none | 200 empty body, `text/plain; charset=utf-8` | 200, 404, 500 (cannot resize) |', '| POST /containers/{id_or_name}/start |', '204 no body | 204, 304, 404, 500 |'],
  since: '1.18',
  tags: ['state'],
  covers: [
    '1:POST /containers/{id_or_name}/resize:query:h',
    '1:POST /containers/{id_or_name}/resize:query:w',
    '1:POST /containers/{id_or_name}/resize:status:200',
    '1:POST /containers/create:body:Tty',
  ],
}, async (context) => {
  const id = await runningTty(context);
  const res = await context.engine.post(`/containers/${id}/resize`, { query: SIZE });
  context.expect(res.status, 'status').toBe(200);
  context.expect(res.text(), 'body').toBe('');
});

check('containers.resize.content-type', {
  title: 'a resize answers text/plain; charset=utf-8',
  spec: '1 §4.1',
  quote: ['| POST /containers/{id_or_name}/resize | h (height), w (width), both in characters | none | 200 empty body, `text/plain; charset=utf-8` | 200, 404, 500 (cannot resize) |', '| POST /containers/{id_or_name}/start |', '204 no body | 204, 304, 404, 500 |'],
  since: '1.18',
  tags: ['schema'],
  covers: ['1:POST /containers/{id_or_name}/resize', '1:POST /containers/{id_or_name}/resize:status:200'],
}, async (context) => {
  const id = await runningTty(context);
  const res = await context.engine.post(`/containers/${id}/resize`, { query: SIZE });
  context.expect(res.status, 'status').toBe(200);
  context.expect(res.contentType, 'Content-Type').toBe('text/plain; charset=utf-8');
});

check('containers.resize.not-found', {
  title: 'resizing a container that does not exist answers 404',
  spec: '1 §4.1, §7.2',
  quote: ['| POST /containers/{id_or_name}/resize | h (height), w (width), both in characters | none | 200 empty body, `text/plain; charset=utf-8` | 200, 404, 500 (cannot resize) |', '404 no such container'],
  since: '1.18',
  tags: ['error'],
  covers: ['1:POST /containers/{id_or_name}/resize:status:404'],
}, async ({ engine, expect }) => {
  const res = await engine.post(`/containers/${UNKNOWN_CONTAINER}/resize`, { query: SIZE });
  expect(res.status, 'status').toBe(404);
});

check('containers.resize.not-running', {
  title: 'resizing a container that is not running is refused with 409 (the spec says only that a resize takes effect after a restart)',
  spec: '1 §3',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['error', 'state'],
}, async (context) => {
  const id = await createdContainer(context, { Cmd: ['sleep', '300'], Tty: true });
  const res = await context.engine.post(`/containers/${id}/resize`, { query: SIZE });
  context.expect(res.status, `status: ${res.text().trim()}`).toBe(409);
});

check('containers.resize.not-running-status', {
  title: 'resizing a container that is not running answers a status of the resize row: 200 (taking effect once it runs) or 500 (cannot resize)',
  spec: '1 §4.1, §3',
  quote: ['| POST /containers/{id_or_name}/resize | h (height), w (width), both in characters | none | 200 empty body, `text/plain; charset=utf-8` | 200, 404, 500 (cannot resize) |', '| resize | | takes effect only after the container is restarted |'],
  since: '1.18',
  tags: ['error', 'state'],
}, async (context) => {
  // 404 would say there is no such container: the row leaves 200 and 500 for one that exists.
  const id = await createdContainer(context, { Cmd: ['sleep', '300'], Tty: true });
  const res = await context.engine.post(`/containers/${id}/resize`, { query: SIZE });
  context.expect([200, 500], `status: ${res.text().trim()}`).toContain(res.status);
});

check('containers.resize.event', {
  title: 'a resize emits a container resize event whose attributes carry height and width as strings',
  spec: '2 §6, §4.2, 1 §4.1',
  quote: ['Each event is a JSON object of the shape in 2.9.', 'a resize event adds height and width (strings)', '| container | attach, commit, copy, create, destroy, detach, die, exec_create, exec_detach, exec_start, export, kill, oom, pause, rename, resize, restart, start, stop, top, unpause, update |', 'Event filters: container=<string>, event=<string>, image=<string>, label=<string> (image and container labels), type=<string> (container, image, volume, network or daemon)', '| GET /events | since (timestamp; show events since then and keep streaming), until (timestamp; stop after), filters | none | 200 `application/json`, chunked stream of events | 200, 500 |', '| POST /containers/{id_or_name}/resize | h (height), w (width), both in characters | none | 200 empty body, `text/plain; charset=utf-8` | 200, 404, 500 (cannot resize) |', '| POST /containers/{id_or_name}/start |', '204 no body | 204, 304, 404, 500 |'],
  since: '1.18',
  tags: ['state'],
  covers: ['1:POST /containers/{id_or_name}/resize:query:h', '1:POST /containers/{id_or_name}/resize:query:w'],
}, async (context) => {
  const id = await runningTty(context);
  const resizes = await eventsDuring(context, { container: [id], event: ['resize'] }, async () => {
    const res = await context.engine.post(`/containers/${id}/resize`, { query: SIZE });
    context.expect(res.status, 'resize status').toBe(200);
  }, (event) => event.Action === 'resize');
  context.expect(resizes.map((event) => event.Actor?.Attributes ?? {}), 'attributes of the resize events').toContainEqual(
    context.expect.objectContaining({ height: String(SIZE.h), width: String(SIZE.w) }),
  );
});
