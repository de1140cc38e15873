/**
 * GET /version (spec/2 §2.5, §4.2): every field of the version object, BuildTime a timestamp and
 * Experimental a boolean as the spec types them; the Content-Type and the other fields' types are
 * dockerd's (docker-level). And the ApiVersion it reports covers the version requested (spec/1 §9).
 */
import { check } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { timestamp } from '../../harness/schemas/schema-parts.ts';
import { VERSION_SCHEMA } from '../../harness/schemas/system-schemas.ts';
import { atLeast } from '../../protocol/versions.ts';

/** The version object as spec/2 §2.5 gives it: every field, typed only where it gives a type. */
const SPEC_VERSION_SCHEMA = {
  type: 'object',
  required: ['Version', 'Os', 'KernelVersion', 'GoVersion', 'GitCommit', 'Arch', 'ApiVersion', 'BuildTime', 'Experimental'],
  properties: { BuildTime: timestamp, Experimental: { type: 'boolean' } },
} as const;

check('system.version.schema', {
  title: 'GET /version answers 200 with every field of the version object, BuildTime a timestamp and Experimental a boolean',
  spec: '2 §2.5, §4.2',
  quote: ['Version response: Version, Os, KernelVersion, GoVersion, GitCommit, Arch, ApiVersion, BuildTime (RFC 3339 with nanoseconds), Experimental (boolean).', '| GET /version | | none | 200 version object | 200, 500 |'],
  since: '1.18',
  tags: ['schema'],
  covers: ['2:GET /version', '2:GET /version:status:200'],
}, async ({ engine, expect }) => {
  const res = await engine.get('/version');
  expect(res.status, 'status').toBe(200);
  assertMatchesSchema(res.json(), SPEC_VERSION_SCHEMA, 'the version object');
});

check('system.version.schema-types', {
  title: 'GET /version answers application/json, its fields strings and ApiVersion like 1.25 (as dockerd; Experimental left out when false)',
  spec: '2 §2.5',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['schema'],
}, async ({ engine, expect }) => {
  const res = await engine.get('/version');
  expect(res.status, 'status').toBe(200);
  expect(res.contentType, 'Content-Type').toMatch(/^application\/json\b/);
  assertMatchesSchema(res.json(), { ...VERSION_SCHEMA, required: VERSION_SCHEMA.required.filter((field) => field !== 'Experimental') }, 'the version object');
});

check('system.version.serves-requested', {
  title: 'the ApiVersion GET /version reports is not older than the version requested',
  spec: '1 §9',
  quote: ["When the client API version is newer than the daemon's, calls fail with 400 (404 before 1.19)."],
  since: '1.18',
  tags: ['version'],
  covers: ['2:GET /version'],
}, async ({ engine, expect, version }) => {
  const res = await engine.get('/version');
  expect(res.status, 'status').toBe(200);
  const { ApiVersion } = res.json<{ ApiVersion: string }>();
  expect(atLeast(ApiVersion, version), `ApiVersion ${ApiVersion} covers the requested ${version}`).toBe(true);
});
