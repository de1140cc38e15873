import { check } from '../../harness/check.ts';

check('system.ping.ok', {
  title: 'GET /_ping answers 200 text/plain with body OK',
  spec: '2 §4.2',
  quote: ['| GET /_ping | | none | 200 `text/plain` body OK | 200, 500 |'],
  since: '1.18',
  tags: ['schema'],
  covers: ['2:GET /_ping', '2:GET /_ping:status:200'],
}, async ({ engine, expect }) => {
  const res = await engine.get('/_ping');
  expect(res.status, 'status').toBe(200);
  expect(res.contentType, 'Content-Type').toMatch(/^text\/plain\b/);
  expect(res.text(), 'body').toBe('OK');
});

check('system.ping.head', {
  title: 'HEAD /_ping answers 200 with no body (docker clients send it first)',
  spec: '2 §4.2',
  // The spec lists GET /_ping only.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['schema'],
  covers: ['2:GET /_ping'],
}, async ({ engine, expect }) => {
  const res = await engine.head('/_ping');
  expect(res.status, 'status').toBe(200);
  expect(res.body.length, 'body length').toBe(0);
});
