import { check } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { VERSION_SCHEMA } from '../../harness/schemas/system-schemas.ts';
import { atLeast } from '../../harness/versions.ts';

check('system.version.schema', {
  title: 'GET /version answers 200 JSON with every field of the version object',
  spec: '2 §2.5',
  since: '1.18',
  tags: ['schema'],
  covers: ['2:GET /version', '2:GET /version:status:200'],
}, async ({ engine, expect }) => {
  const res = await engine.get('/version');
  expect(res.status, 'status').toBe(200);
  expect(res.contentType, 'Content-Type').toMatch(/^application\/json\b/);
  assertMatchesSchema(res.json(), VERSION_SCHEMA, 'the version object');
});

check('system.version.serves-requested', {
  title: 'the ApiVersion GET /version reports is not older than the version requested',
  spec: '1 §9',
  since: '1.18',
  tags: ['version'],
  covers: ['2:GET /version'],
}, async ({ engine, expect, version }) => {
  const res = await engine.get('/version');
  expect(res.status, 'status').toBe(200);
  const { ApiVersion } = res.json<{ ApiVersion: string }>();
  expect(atLeast(ApiVersion, version), `ApiVersion ${ApiVersion} covers the requested ${version}`).toBe(true);
});
