/**
 * POST /build with pull=1 (spec/2 §4.1: pull even if an older image exists) and X-Registry-Config
 * (base64 of a ConfigFile: the credentials for each registry): the base image is the fixture pushed
 * to the run's registry, whose repositories are private, and the engine has it under that name too.
 * Without credentials the build fails, so pull=1 went to the registry rather than take the image the
 * engine has; with them it pulls, and builds.
 *
 * The spec says "base64" of both registry headers; dockerd decodes them as base64url. The headers
 * here are base64 whose text holds neither `+` nor `/` (the JSON's spacing and escapes are varied
 * until it does), which both alphabets read alike. The spec gives a ConfigFile no fields: it is read
 * as dockerd's, a map from registry host to {username, password, serveraddress}. The push that puts
 * the base image there is checked for a 200 stream without error only (spec/2 §4.1 gives its lines
 * no wording).
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { CLEAN_UP } from '../../harness/resources.ts';
import { imageStatus, streamError, streamMessages, tagImage } from '../image-steps.ts';
import { registryUser, type RegistryUser } from '../registry-steps.ts';
import { BUILD_TIMEOUT_MS, build, buildContext } from './build-steps.ts';

/** How many spellings of the JSON {@link base64Json} tries for one whose base64 holds neither `+` nor `/`. */
const SPELLINGS = 20_000;

/** Escapes some characters of a JSON text's strings as \uXXXX and spaces some of its separators, as `choose` says. */
function respelled(json: string, choose: () => boolean): string {
  let out = '';
  let inString = false;
  for (let index = 0; index < json.length; index++) {
    const char = json[index] as string;
    if (inString) {
      if (char === '\\') {
        out += char + (json[index + 1] ?? '');
        index++;
      } else if (char === '"') {
        inString = false;
        out += char;
      } else {
        out += choose() ? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}` : char;
      }
      continue;
    }
    if (char === '"') inString = true;
    out += char;
    if ((char === ',' || char === ':' || char === '{') && choose()) out += ' ';
  }
  return out;
}

/** `value` as base64 JSON (spec/2 §4.1) whose text is also valid base64url: no `+`, no `/`. */
function base64Json(value: unknown): string {
  const json = JSON.stringify(value);
  let seed = 1;
  const choose = () => {
    // a small deterministic generator: the same value gives the same header every time
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % 4 === 0;
  };
  for (let attempt = 0; attempt < SPELLINGS; attempt++) {
    const text = Buffer.from(attempt === 0 ? json : respelled(json, choose)).toString('base64');
    if (!/[+/]/.test(text)) return text;
  }
  throw new Error(`no spelling of the JSON in ${SPELLINGS} tries gives base64 without + and /`);
}

function credentials(user: RegistryUser): Record<string, string> {
  return { username: user.username, password: user.password, serveraddress: user.host };
}

/** The fixture tagged `<registry>/<user>/<unique>:v1` and pushed with the user's password; returns that name. */
async function pushedBase(context: CheckContext): Promise<string> {
  const { engine, expect, make, session } = context;
  const user = registryUser(context);
  const repository = `${user.host}/${user.username}/${make.uniqueName('buildpull')}`;
  const tagged = await tagImage(context, session.fixtureImage, `${repository}:v1`);
  expect(tagged.status, `tagging ${repository}:v1: ${tagged.describe()}`).toBe(201);
  const res = await engine.post(`/images/${repository}/push`, { query: { tag: 'v1' }, headers: { 'X-Registry-Auth': base64Json(credentials(user)) } });
  expect(res.status, `push: ${res.describe()}`).toBe(200);
  expect(streamError(streamMessages(res)), `push of ${repository}:v1 failed: ${res.describe()}`).toBeUndefined();
  // The digest names the push (and the pull) give the fixture go with the check too.
  make.track(`digest names of ${repository}`, async () => {
    const inspected = await engine.unversioned(CLEAN_UP).get(`/images/${encodeURIComponent(session.fixtureImage)}/json`);
    if (inspected.status !== 200) return;
    const digests = inspected.json<{ RepoDigests?: string[] | null }>().RepoDigests ?? [];
    for (const name of digests.filter((digest) => digest.startsWith(`${repository}@`))) {
      await engine.delete(`/images/${encodeURIComponent(name)}`);
    }
  });
  return `${repository}:v1`;
}

check('build.pull.registry-config', {
  title: 'a build with pull=1 of a private base image the engine has fails without X-Registry-Config: pull goes to the registry',
  spec: '2 §4.1',
  quote: ['pull (pull even if an older image exists)', '200 JSON stream of objects: {stream}, or {error, errorDetail {code, message}} | 200, 500 |'],
  since: '1.18',
  tags: ['state'],
  requires: ['registry'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build:query:pull'],
}, async (context) => {
  const { expect } = context;
  const base = await pushedBase(context);
  expect(await imageStatus(context, base), `GET /images/${base}/json status: the engine has the base image`).toBe(200);
  const { tar } = await buildContext(context, 'minimal', { values: { fixture: base } });
  const refused = await build(context, tar, { pull: 1 });
  // A failed build: an error object in the 200 stream, or the row's other status, 500.
  const refusedFailed = refused.res.status === 500 || (refused.res.status === 200 && streamError(refused.messages) !== undefined);
  expect(refusedFailed, `the build without X-Registry-Config failed (status ${refused.res.status}); output: ${refused.output.slice(-300)}`).toBe(true);
});

check('build.pull.registry-config-credentials', {
  title: 'with X-Registry-Config as dockerd reads it (registry host → credentials), a build with pull=1 of a private base image pulls it and succeeds',
  spec: '2 §4.1',
  // The spec gives a ConfigFile no fields (spec/2 §4.1; spec/1 §5.3 points there for its shape): the
  // map from registry host to credentials is dockerd's.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
  requires: ['registry'],
  timeoutMs: BUILD_TIMEOUT_MS,
}, async (context) => {
  const { expect } = context;
  const base = await pushedBase(context);
  const { tar } = await buildContext(context, 'minimal', { values: { fixture: base } });
  const user = registryUser(context);
  const pulled = await build(context, tar, { pull: 1 }, { 'X-Registry-Config': base64Json({ [user.host]: credentials(user) }) });
  expect(pulled.res.status, `status of the build with X-Registry-Config; output: ${pulled.output.slice(-300)}`).toBe(200);
  expect(streamError(pulled.messages), `the build with X-Registry-Config failed; output: ${pulled.output.slice(-300)}`).toBeUndefined();
});
