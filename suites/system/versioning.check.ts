import { check } from '../../harness/check.ts';
import { atLeast, OLDEST_VERSION, parseVersion } from '../../protocol/versions.ts';
import type { EngineClient } from '../../harness/client/engine-client.ts';

interface ServerVersion {
  Version: string;
  ApiVersion: string;
  MinAPIVersion?: string;
  GitCommit: string;
  Os: string;
  Arch: string;
}

/** The prefix checks are about the versions: what they compare with goes where they say. */
const ABOUT_PREFIXES = 'a check about version prefixes';

async function serverVersion(engine: EngineClient): Promise<ServerVersion> {
  const res = await engine.unversioned(ABOUT_PREFIXES).get('/version');
  if (res.status !== 200) throw new Error(`setup: GET /version answered ${res.status}`);
  return res.json<ServerVersion>();
}

function nextMinor(version: string): string {
  const [major, minor] = parseVersion(version);
  return `${major}.${minor + 1}`;
}

function previousMinor(version: string): string {
  const [major, minor] = parseVersion(version);
  return `${major}.${minor - 1}`;
}

check('system.prefix.same-server', {
  title: 'GET /vX.Y/version and unprefixed GET /version describe the same server (Version, GitCommit, Os, Arch)',
  spec: '1 §9',
  quote: ['The API version is part of the path prefix: `/v1.24/info` equals `/info` on a daemon whose current version is 1.24. An older version is requested with its prefix, for example `/v1.23/info`.'],
  since: '1.18',
  tags: ['version'],
  covers: ['2:GET /version'],
}, async ({ engine, expect }) => {
  const prefixed = await engine.get('/version');
  const unprefixed = await engine.unversioned(ABOUT_PREFIXES).get('/version');
  expect(prefixed.status, 'prefixed status').toBe(200);
  expect(unprefixed.status, 'unprefixed status').toBe(200);
  // ApiVersion is left out: whether an older prefix is answered with the daemon's version or the one
  // asked for, the spec does not say (system.version.serves-requested judges it).
  const identity = ({ Version, GitCommit, Os, Arch }: ServerVersion) => ({ Version, GitCommit, Os, Arch });
  expect(identity(prefixed.json()), 'prefixed answer').toEqual(identity(unprefixed.json()));
});

check('system.prefix.unprefixed-is-current', {
  title: 'an unprefixed path answers as the server\'s current version: /info has the fields of /v<ApiVersion>/info',
  spec: '1 §9',
  quote: ['`/v1.24/info` equals `/info` on a daemon whose current version is 1.24.'],
  since: '1.18',
  tags: ['version'],
  covers: ['2:GET /info'],
}, async ({ engine, expect }) => {
  const { ApiVersion } = await serverVersion(engine);
  const current = await engine.at(ApiVersion, ABOUT_PREFIXES).get('/info');
  const unprefixed = await engine.unversioned(ABOUT_PREFIXES).get('/info');
  expect(current.status, `GET /v${ApiVersion}/info status`).toBe(200);
  expect(unprefixed.status, 'GET /info status').toBe(200);
  const fields = (body: object) => Object.keys(body).sort();
  expect(fields(unprefixed.json<object>()), 'fields of GET /info').toEqual(fields(current.json<object>()));
});

check('system.prefix.too-new', {
  title: 'a version newer than the server\'s ApiVersion is refused with 400 (404 by a server older than 1.19)',
  spec: '1 §9',
  quote: ["When the client API version is newer than the daemon's, calls fail with 400 (404 before 1.19)."],
  since: '1.18',
  tags: ['version', 'error'],
  covers: ['1:version-rule:1.19:newer-client-400'],
}, async ({ engine, expect }) => {
  const { ApiVersion } = await serverVersion(engine);
  const tooNew = nextMinor(ApiVersion);
  const res = await engine.at(tooNew, ABOUT_PREFIXES).get('/version');
  // 400 since 1.19; a server older than that answered 404.
  expect(res.status, `status for /v${tooNew}/: ${res.text().trim()}`).toBe(atLeast(ApiVersion, '1.19') ? 400 : 404);
});

check('system.prefix.too-old', {
  title: 'a version older than the server\'s minimum (MinAPIVersion, else 1.18) is refused with 400 and a message naming it',
  spec: '1 §9',
  // The spec names no minimum version (nor MinAPIVersion): refusing an older prefix is dockerd's.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['version', 'error'],
}, async ({ engine, expect }) => {
  const { MinAPIVersion } = await serverVersion(engine);
  const tooOld = previousMinor(MinAPIVersion ?? OLDEST_VERSION);
  const res = await engine.at(tooOld, ABOUT_PREFIXES).get('/version');
  expect(res.status, `status for /v${tooOld}/`).toBe(400);
  expect(res.text(), 'error body').toContain(tooOld);
});

check('system.routes.unknown', {
  title: 'an unknown route answers 404',
  spec: '1 §7',
  quote: ['Errors use standard HTTP status codes.'],
  since: '1.18',
  tags: ['error'],
}, async ({ engine, expect }) => {
  const res = await engine.get('/shipshape-no-such-route');
  expect(res.status, 'status').toBe(404);
});
