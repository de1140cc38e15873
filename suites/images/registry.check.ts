/**
 * Pull and push through a registry (spec/2 §4.1) with X-Registry-Auth: the run's registry, which
 * trusts the token service, and its user. A push answers a JSON stream without error; a pull of what
 * was pushed brings the name back, by password, (from 1.22) by a registry token of the token service,
 * and (from 1.25) by the identity token of POST /auth. A tag the registry lacks, or credentials the
 * token service refuses, fail a pull or a push (500, or 200 with {error} in the stream: the spec does
 * not say which), and a name the target has no image of fails a push (404). The header is base64 as
 * the spec says, in text whose standard and URL-safe encodings agree. At docker level what dockerd
 * streams: the repository line, the digest line and `Digest:` status, the pulled image's id and
 * RepoDigests, and a refused push as 200 ending with {error}.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import type { ApiResponse } from '../../harness/client/api-response.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { atLeast } from '../../protocol/versions.ts';
import { imageStatus, inspectImage, listImages, removeImage, streamError, streamMessages, tagImage, type StreamMessage } from '../image-steps.ts';
import { pullImage, pushedFixture, refusedAuth, refusedCredentials, registryUser, type PushedImage, type RegistryUser } from '../registry-steps.ts';
import { expectSpecTokenResponse, passwordGrant, tokenSetup } from '../token/token-steps.ts';

interface PulledInspect {
  Id: string;
  RepoDigests?: string[] | null;
}

/**
 * An X-Registry-Auth value (spec/2 §4.1: base64 of the JSON AuthConfig) whose text has neither `+`
 * nor `/`: it reads the same in the standard alphabet and the URL-safe one (which dockerd decodes),
 * found by spacing the JSON, which changes its bytes but not its meaning.
 */
function specAuth(config: Record<string, string>): Record<string, string> {
  for (const comma of [',', ', ']) {
    for (const colon of [':', ': ']) {
      for (const lead of ['', ' ', '  ']) {
        const json = `{${lead}${Object.entries(config).map(([key, value]) => `${JSON.stringify(key)}${colon}${JSON.stringify(value)}`).join(comma)}}`;
        const encoded = Buffer.from(json).toString('base64');
        if (!/[+/]/.test(encoded)) return { 'X-Registry-Auth': encoded };
      }
    }
  }
  throw new Error('setup: no spacing of the AuthConfig JSON encodes without + or /');
}

function passwordSpecAuth(user: RegistryUser): Record<string, string> {
  return specAuth({ username: user.username, password: user.password, serveraddress: user.host });
}

/** The names `<repository>@…` the target gave an image of `repository` (a push or pull records the digest): taken off after the check. */
async function forgetDigests(context: CheckContext, repository: string): Promise<void> {
  const listed = await listImages(context, { digests: 1 });
  for (const digest of listed.flatMap((item) => item.RepoDigests ?? [])) {
    if (digest.startsWith(`${repository}@`)) context.make.tag(digest);
  }
}

interface Pushed {
  /** `host:port/user/name` */
  repository: string;
  tag: string;
  messages: StreamMessage[];
}

/** The fixture image named `<registry>/<user>/<unique>:v1` and pushed with the user's password; asserts a 200 stream without error. */
async function pushed(context: CheckContext, hint: string): Promise<Pushed> {
  const { engine, expect, make, session } = context;
  const user = registryUser(context);
  const repository = `${user.host}/${user.username}/${make.uniqueName(hint)}`;
  const tag = 'v1';
  const tagged = await tagImage(context, session.fixtureImage, `${repository}:${tag}`);
  expect(tagged.status, `tagging ${repository}:${tag}: ${tagged.describe()}`).toBe(201);
  const res = await engine.post(`/images/${repository}/push`, { query: { tag }, headers: passwordSpecAuth(user) });
  expect(res.status, `push: ${res.describe()}`).toBe(200);
  const messages = streamMessages(res);
  await forgetDigests(context, repository);
  expect(streamError(messages), `push of ${repository}:${tag} failed: ${res.describe()}`).toBeUndefined();
  return { repository, tag, messages };
}

/** Takes the pushed name off the fixture image, so that the pull must bring it back. */
async function untagged(context: CheckContext, image: { repository: string; tag: string }): Promise<void> {
  const res = await removeImage(context, `${image.repository}:${image.tag}`);
  context.expect(res.status, `removing ${image.repository}:${image.tag}: ${res.describe()}`).toBe(200);
}

/** The pull answered 200, a stream without error, and the pulled name is there again. */
async function expectPulled(context: CheckContext, image: { repository: string; tag: string }, res: ApiResponse): Promise<void> {
  const { expect } = context;
  const name = `${image.repository}:${image.tag}`;
  context.make.tag(name);
  await forgetDigests(context, image.repository);
  expect(res.status, `pull: ${res.describe()}`).toBe(200);
  expect(streamError(streamMessages(res)), `the pull's stream reports an error: ${res.describe()}`).toBeUndefined();
  expect(await imageStatus(context, name), `GET /images/${name}/json status after the pull`).toBe(200);
}

/** A refused pull or push: 500 with the error body of the version, or 200 with {error} in its stream. */
function expectRefused(context: CheckContext, res: ApiResponse, what: string): void {
  context.expect([200, 500], `${what}: ${res.describe()}`).toContain(res.status);
  if (res.status === 500) expectErrorBodyOfVersion(context, res);
  else context.expect(streamError(streamMessages(res))?.error, `${what}: an {error} in the stream: ${res.describe()}`).toBeDefined();
}

check('images.push.to-registry', {
  title: 'a push with X-Registry-Auth of an image named for the registry answers 200 with a JSON stream without error',
  spec: '2 §4.1',
  quote: [
    '| POST /images/{name}/push |',
    'tag (optional); header X-Registry-Auth',
    '200 JSON stream like pull',
    'to push to a private registry the image must already carry a tag naming that registry host and port and that repository name is used in the path | 200, 404, 500 |',
    'The X-Registry-Auth header carries a base64-encoded JSON AuthConfig object: either credentials {username, password, email, serveraddress, auth}',
  ],
  since: '1.18',
  tags: ['stream', 'state'],
  requires: ['registry'],
  timeoutMs: 50_000,
  covers: [
    '2:POST /images/{name}/push',
    '2:POST /images/{name}/push:query:tag',
    '2:POST /images/{name}/push:header:X-Registry-Auth',
    '2:POST /images/{name}/push:status:200',
  ],
}, async (context) => {
  await pushed(context, 'push');
});

check('images.push.stream-lines', {
  title: 'a push streams "The push refers to repository [<repository>]" first and a "<tag>: digest: sha256:<hex> size: <n>" line (as dockerd)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['stream', 'state'],
  requires: ['registry'],
  timeoutMs: 50_000,
}, async (context) => {
  // pushedFixture asserts the digest line.
  const image = await pushedFixture(context, 'push');
  context.expect(image.messages[0]?.status, 'first line of the push').toBe(`The push refers to repository [${image.repository}]`);
});

check('images.pull.from-registry', {
  title: 'a pull with X-Registry-Auth (password) of a pushed name the target no longer has answers 200 without error and brings the name back',
  spec: '2 §4.1',
  quote: [
    '| POST /images/create |',
    'fromImage (name to pull)',
    'repo, tag; header X-Registry-Auth',
    '200 JSON stream of {status}, {status, progress, progressDetail {current, total}}, {error} | 200, 500 |',
    'The X-Registry-Auth header carries a base64-encoded JSON AuthConfig object: either credentials {username, password, email, serveraddress, auth}',
  ],
  since: '1.18',
  tags: ['stream', 'state'],
  requires: ['registry'],
  timeoutMs: 50_000,
  covers: [
    '2:POST /images/create:query:fromImage',
    '2:POST /images/create:query:tag',
    '2:POST /images/create:header:X-Registry-Auth',
    '2:POST /images/create:status:200',
  ],
}, async (context) => {
  const image = await pushed(context, 'pull');
  await untagged(context, image);
  await expectPulled(context, image, await pullImage(context, image.repository, image.tag, passwordSpecAuth(registryUser(context))));
});

/** An image's RepoDigests: inspect has them from 1.21, the list (with digests=1) at every version. */
async function repoDigests(context: CheckContext, image: PulledInspect): Promise<string[]> {
  if (atLeast(context.version, '1.21')) return image.RepoDigests ?? [];
  const listed = await listImages(context, { digests: 1 });
  return listed.find((item) => item.Id === image.Id)?.RepoDigests ?? [];
}

check('images.pull.digest', {
  title: 'a pull streams "Digest: <the pushed digest>", brings back the image with the pushed id, and lists <repository>@<digest> in its RepoDigests (as dockerd)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['stream', 'state'],
  requires: ['registry'],
  timeoutMs: 50_000,
}, async (context) => {
  const { expect, session } = context;
  const image: PushedImage = await pushedFixture(context, 'digest');
  await untagged(context, image);
  const res = await pullImage(context, image.repository, image.tag, passwordSpecAuth(registryUser(context)));
  context.make.tag(`${image.repository}:${image.tag}`);
  expect(res.status, `pull: ${res.describe()}`).toBe(200);
  const messages = streamMessages(res);
  expect(streamError(messages), `the pull's stream reports an error: ${res.describe()}`).toBeUndefined();
  expect(messages.map((message) => message.status), 'the pull names the digest it got').toContain(`Digest: ${image.digest}`);
  const [pulled, fixture] = [await inspectImage(context, `${image.repository}:${image.tag}`), await inspectImage(context, session.fixtureImage)];
  expect(pulled.Id, 'the pulled image is the one pushed').toBe(fixture.Id);
  expect(await repoDigests(context, pulled as PulledInspect), 'RepoDigests of the pulled image').toContain(`${image.repository}@${image.digest}`);
});

check('images.pull.identity-token', {
  title: 'a pull with X-Registry-Auth {identitytoken} from POST /auth brings the pushed name back',
  spec: '2 §4.1, §4.2',
  quote: [
    '| POST /images/create |',
    'fromImage (name to pull)',
    'repo, tag; header X-Registry-Auth',
    '200 JSON stream of {status}, {status, progress, progressDetail {current, total}}, {error} | 200, 500 |',
    'or an identity token {identitytoken} (from 1.25',
    '| POST /auth |',
    'JSON {username, password, serveraddress} | 200 {Status (string), IdentityToken (string, when the registry supports it)} | 200, 204, 500 |',
  ],
  since: '1.25',
  tags: ['stream', 'state'],
  requires: ['registry'],
  timeoutMs: 50_000,
  covers: ['2:POST /images/create:header:X-Registry-Auth', '2:version-rule:1.25:registry-auth-identitytoken'],
}, async (context) => {
  const { engine, expect } = context;
  const user = registryUser(context);
  const image = await pushed(context, 'idtoken');
  const login = await engine.post('/auth', { json: { username: user.username, password: user.password, serveraddress: user.host } });
  expect([200, 204], `login: ${login.describe()}`).toContain(login.status);
  // IdentityToken comes "when the registry supports it" (and a 204 has no body): without one the check cannot run.
  const identityToken = login.status === 200 ? login.json<{ IdentityToken?: unknown }>().IdentityToken : undefined;
  if (typeof identityToken !== 'string' || identityToken === '') throw new Error(`setup: the login gave no IdentityToken, which this check needs (the registry need not support it): ${login.describe()}`);
  await untagged(context, image);
  await expectPulled(context, image, await pullImage(context, image.repository, image.tag, specAuth({ identitytoken: identityToken })));
});

check('images.pull.registry-token', {
  title: 'from 1.22 a pull with X-Registry-Auth {registrytoken}, a pull token of the registry\'s token service, brings the pushed name back',
  spec: '2 §4.1, 3 §2.2, §4',
  quote: [
    '| POST /token | Content-Type `application/x-www-form-urlencoded` | form fields of 2.1 | 200 `application/json` token response of 2.2 |',
    '| scope | yes | scope granted',
    '| expires_in | yes | seconds the token stays valid from issue',
    '| POST /images/create |',
    'fromImage (name to pull)',
    'repo, tag; header X-Registry-Auth',
    '200 JSON stream of {status}, {status, progress, progressDetail {current, total}}, {error} | 200, 500 |',
    'a registrytoken field for token-based authentication exists from 1.22',
    '| access_token | yes | opaque bearer token',
  ],
  since: '1.22',
  tags: ['stream', 'state'],
  requires: ['registry', 'token-service'],
  timeoutMs: 50_000,
  covers: ['2:POST /images/create:header:X-Registry-Auth', '2:version-rule:1.22:registry-auth-registrytoken'],
}, async (context) => {
  const image = await pushed(context, 'regtoken');
  const setup = tokenSetup(context);
  const path = image.repository.slice(image.repository.indexOf('/') + 1);
  const token = expectSpecTokenResponse(context.expect, await setup.client.post(passwordGrant(setup, { scope: `repository:${path}:pull` }))).access_token;
  await untagged(context, image);
  await expectPulled(context, image, await pullImage(context, image.repository, image.tag, specAuth({ registrytoken: String(token) })));
});

check('images.pull.absent-tag', {
  title: 'a pull of a tag the registry lacks fails: 500 with the error body of the version, or 200 with {error} in the stream',
  spec: '2 §4.1, 1 §7.1',
  quote: [
    '| POST /images/create |',
    'fromImage (name to pull)',
    'repo, tag; header X-Registry-Auth',
    '200 JSON stream of {status}, {status, progress, progressDetail {current, total}}, {error} | 200, 500 |',
    'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.',
  ],
  since: '1.18',
  tags: ['error'],
  requires: ['registry'],
  covers: ['2:POST /images/create:query:fromImage', '2:POST /images/create:query:tag', '2:POST /images/create:status:500', '1:version-rule:1.24:json-errors'],
}, async (context) => {
  const user = registryUser(context);
  const repository = `${user.host}/${user.username}/${context.make.uniqueName('absent')}`;
  expectRefused(context, await pullImage(context, repository, 'absent', passwordSpecAuth(user)), `pull of ${repository}:absent`);
});

check('images.pull.refused-credentials', {
  title: 'a pull whose X-Registry-Auth the token service refuses fails (500 with the error body of the version, or 200 with {error} in the stream), and the name does not come back',
  spec: '2 §4.1, 1 §7.1',
  quote: [
    '| POST /images/create |',
    'fromImage (name to pull)',
    'repo, tag; header X-Registry-Auth',
    '200 JSON stream of {status}, {status, progress, progressDetail {current, total}}, {error} | 200, 500 |',
    'The X-Registry-Auth header carries a base64-encoded JSON AuthConfig object: either credentials {username, password, email, serveraddress, auth}',
    'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.',
  ],
  since: '1.18',
  tags: ['error'],
  requires: ['registry'],
  timeoutMs: 50_000,
  covers: ['2:POST /images/create:header:X-Registry-Auth', '2:POST /images/create:status:500'],
}, async (context) => {
  const image = await pushed(context, 'refused');
  await untagged(context, image);
  const res = await pullImage(context, image.repository, image.tag, specAuth({ ...refusedCredentials(context), serveraddress: registryUser(context).host }));
  expectRefused(context, res, 'pull with refused credentials');
  context.expect(await imageStatus(context, `${image.repository}:${image.tag}`), 'the name was not pulled back').toBe(404);
});

check('images.push.refused-credentials', {
  title: 'a push whose X-Registry-Auth the token service refuses fails: 500 with the error body of the version, or 200 with {error} in the stream',
  spec: '2 §4.1, 1 §7.1',
  quote: [
    '| POST /images/{name}/push |',
    'tag (optional); header X-Registry-Auth',
    '200 JSON stream like pull',
    'to push to a private registry the image must already carry a tag naming that registry host and port and that repository name is used in the path | 200, 404, 500 |',
    'The X-Registry-Auth header carries a base64-encoded JSON AuthConfig object: either credentials {username, password, email, serveraddress, auth}',
    'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.',
  ],
  since: '1.18',
  tags: ['stream', 'error'],
  requires: ['registry'],
  covers: ['2:POST /images/{name}/push:header:X-Registry-Auth', '2:POST /images/{name}/push:status:200'],
}, async (context) => {
  const { engine, expect, make, session } = context;
  const user = registryUser(context);
  const repository = `${user.host}/${user.username}/${make.uniqueName('refused')}`;
  const tagged = await tagImage(context, session.fixtureImage, `${repository}:v1`);
  expect(tagged.status, `tagging ${repository}:v1: ${tagged.describe()}`).toBe(201);
  const res = await engine.post(`/images/${repository}/push`, { query: { tag: 'v1' }, headers: specAuth({ ...refusedCredentials(context), serveraddress: user.host }) });
  expectRefused(context, res, 'push with refused credentials');
});

check('images.push.refused-in-stream', {
  title: 'a push whose X-Registry-Auth the token service refuses answers 200 and ends its stream with {error} (as dockerd)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['stream', 'error'],
  requires: ['registry'],
}, async (context) => {
  const { engine, expect, make, session } = context;
  const user = registryUser(context);
  const repository = `${user.host}/${user.username}/${make.uniqueName('refused')}`;
  const tagged = await tagImage(context, session.fixtureImage, `${repository}:v1`);
  expect(tagged.status, `tagging ${repository}:v1: ${tagged.describe()}`).toBe(201);
  const res = await engine.post(`/images/${repository}/push`, { query: { tag: 'v1' }, headers: refusedAuth(context) });
  expect(res.status, `push: ${res.describe()}`).toBe(200);
  expect(streamMessages(res).at(-1)?.error, `the push's last line is an error: ${res.describe()}`).toEqual(expect.any(String));
});

check('images.push.unknown-image', {
  title: 'a push of a name the target has no image of answers 404 with the error body of the version',
  spec: '2 §4.1, 1 §7.1, §7.2',
  quote: [
    '| POST /images/{name}/push |',
    'to push to a private registry the image must already carry a tag naming that registry host and port and that repository name is used in the path | 200, 404, 500 |',
    'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.',
    '404 no such container, image, exec instance, volume, network, service or task',
  ],
  since: '1.18',
  tags: ['error'],
  covers: ['2:POST /images/{name}/push:status:404'],
}, async (context) => {
  const name = context.make.uniqueName('nothing');
  const res = await context.engine.post(`/images/${name}/push`, { query: { tag: 'v1' }, headers: specAuth({}) });
  context.expect(res.status, `push of ${name}:v1: ${res.describe()}`).toBe(404);
  expectErrorBodyOfVersion(context, res);
});
