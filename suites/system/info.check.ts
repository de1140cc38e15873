import { check } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { INFO_BOOLEAN_FIELDS, infoSchema } from '../../harness/schemas/system-schemas.ts';
import { before } from '../../harness/versions.ts';

interface Info extends Record<string, unknown> {
  Containers: number;
  ContainersRunning: number;
  ContainersPaused: number;
  ContainersStopped: number;
  Images: number;
  NCPU: number;
  MemTotal: number;
}

check('system.info.schema', {
  title: 'GET /info answers 200 JSON with every field of the info object',
  spec: '2 §2.5',
  since: '1.18',
  tags: ['schema'],
  covers: ['2:GET /info', '2:GET /info:status:200'],
}, async ({ engine, expect, dialect }) => {
  const res = await engine.get('/info');
  expect(res.status, 'status').toBe(200);
  expect(res.contentType, 'Content-Type').toMatch(/^application\/json\b/);
  assertMatchesSchema(res.json(), infoSchema(dialect), 'the info object');
});

check('system.info.booleans', {
  title: 'info flags are JSON booleans from 1.19, and 0/1 integers before',
  spec: '2 §2.5',
  since: '1.18',
  tags: ['version'],
  covers: ['2:GET /info', '1:version-rule:1.19:info-booleans', '2:version-rule:1.19:info-booleans'],
}, async ({ engine, expect, version }) => {
  const info = (await engine.get('/info')).json<Info>();
  const expected = before(version, '1.19') ? 'number' : 'boolean';
  const present = INFO_BOOLEAN_FIELDS.filter((field) => field in info);
  expect(present.length, 'flags present').toBeGreaterThan(0);
  const types = Object.fromEntries(present.map((field) => [field, typeof info[field]]));
  expect(types, `types of the info flags at ${version}`).toEqual(Object.fromEntries(present.map((field) => [field, expected])));
});

check('system.info.counts', {
  title: 'info counts are real: containers by state add up (a created one among them), the fixture image is counted, host resources are positive',
  spec: '2 §2.5',
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /info'],
}, async ({ engine, expect, make, session }) => {
  // A created container of its own: whether the sum holds must not hang on what other checks have at that moment.
  await make.container({ Image: session.fixtureImage, Cmd: ['true'] });
  const info = (await engine.get('/info')).json<Info>();
  expect(info.ContainersRunning + info.ContainersPaused + info.ContainersStopped, 'Running + Paused + Stopped').toBe(info.Containers);
  expect(info.Images, 'Images (the fixture image at least)').toBeGreaterThanOrEqual(1);
  expect(info.NCPU, 'NCPU').toBeGreaterThanOrEqual(1);
  expect(info.MemTotal, 'MemTotal').toBeGreaterThan(0);
});

check('system.info.counts-include-created', {
  title: 'while a created (not started) container exists, info counts it in Containers and ContainersStopped',
  spec: '2 §2.5',
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /info'],
}, async ({ engine, expect, make, session }) => {
  // Other checks create and remove containers at the same time on a live target, so only a lower
  // bound that this check's own container guarantees is safe to assert.
  await make.container({ Image: session.fixtureImage, Cmd: ['true'] });
  const info = (await engine.get('/info')).json<Info>();
  expect(info.Containers, 'Containers').toBeGreaterThanOrEqual(1);
  expect(info.ContainersStopped, 'ContainersStopped').toBeGreaterThanOrEqual(1);
});
