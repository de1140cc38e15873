/**
 * Pull and push through a registry (spec/2 §4.1) with X-Registry-Auth: the run's registry, which
 * trusts the token service, and its user. A push answers a JSON stream naming the repository and the
 * digest the registry gave; a pull of what was pushed brings back the same image, with that digest
 * among its RepoDigests, by password, (from 1.22) by a registry token of the token service, and (from
 * 1.25) by the identity token of POST /auth. A tag the registry lacks, or credentials the token
 * service refuses, fail the pull before the stream (the spec's 500); refused credentials fail a push
 * in its stream, and a name the target has no image of fails it before (404).
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { atLeast } from '../../harness/versions.ts';
import { inspectImage, listImages, removeImage, streamError, streamMessages, tagImage } from '../image-steps.ts';
import { passwordAuth, pullImage, pushedFixture, refusedAuth, registryAuthHeader, registryUser, type PushedImage } from '../registry-steps.ts';
import { expectTokenResponse, passwordGrant, tokenSetup } from '../token/token-steps.ts';

interface PulledInspect {
  Id: string;
  RepoDigests?: string[] | null;
}

/** Takes the pushed name off the fixture image, so that the pull must bring it back. */
async function untagged(context: CheckContext, pushed: PushedImage): Promise<void> {
  const res = await removeImage(context, `${pushed.repository}:${pushed.tag}`);
  context.expect(res.status, `removing ${pushed.repository}:${pushed.tag}: ${res.describe()}`).toBe(200);
}

/** The pull answered a stream without error, ending with the digest pushed, and the image is the fixture's. */
async function expectPulled(context: CheckContext, pushed: PushedImage, res: Awaited<ReturnType<typeof pullImage>>): Promise<void> {
  const { expect, session } = context;
  expect(res.status, `pull: ${res.describe()}`).toBe(200);
  const messages = streamMessages(res);
  expect(streamError(messages), `the pull's stream reports an error: ${res.describe()}`).toBeUndefined();
  expect(messages.map((message) => message.status), 'the pull names the digest it got').toContain(`Digest: ${pushed.digest}`);
  const [pulled, fixture] = [await inspectImage(context, `${pushed.repository}:${pushed.tag}`), await inspectImage(context, session.fixtureImage)];
  expect(pulled.Id, 'the pulled image is the one pushed').toBe(fixture.Id);
  expect(await repoDigests(context, pulled as PulledInspect), 'RepoDigests of the pulled image').toContain(`${pushed.repository}@${pushed.digest}`);
}

/** An image's RepoDigests: inspect has them from 1.21, the list (with digests=1) at every version. */
async function repoDigests(context: CheckContext, image: PulledInspect): Promise<string[]> {
  if (atLeast(context.version, '1.21')) return image.RepoDigests ?? [];
  const listed = await listImages(context, { digests: 1 });
  return listed.find((item) => item.Id === image.Id)?.RepoDigests ?? [];
}

check('images.push.to-registry', {
  title: 'a push with X-Registry-Auth answers 200 with a stream naming the repository first and the digest the registry gave, without error',
  spec: '2 §4.1',
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
  const pushed = await pushedFixture(context, 'push');
  context.expect(pushed.messages[0]?.status, 'first line of the push').toBe(`The push refers to repository [${pushed.repository}]`);
});

check('images.pull.from-registry', {
  title: 'a pull with X-Registry-Auth (password) brings back the image pushed, with the pushed digest among its RepoDigests',
  spec: '2 §4.1',
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
  const pushed = await pushedFixture(context, 'pull');
  await untagged(context, pushed);
  await expectPulled(context, pushed, await pullImage(context, pushed.repository, pushed.tag, passwordAuth(registryUser(context))));
});

check('images.pull.identity-token', {
  title: 'a pull with X-Registry-Auth {identitytoken} from POST /auth brings back the image pushed',
  spec: '2 §4.1',
  since: '1.25',
  tags: ['stream', 'state'],
  requires: ['registry'],
  timeoutMs: 50_000,
  covers: ['2:POST /images/create:header:X-Registry-Auth', '2:version-rule:1.25:registry-auth-identitytoken'],
}, async (context) => {
  const { engine, expect } = context;
  const user = registryUser(context);
  const pushed = await pushedFixture(context, 'idtoken');
  const login = await engine.post('/auth', { json: { username: user.username, password: user.password, serveraddress: user.host } });
  expect(login.status, `login: ${login.describe()}`).toBe(200);
  const identityToken = login.json<{ IdentityToken?: string }>().IdentityToken;
  expect(identityToken, 'IdentityToken of the login: this check needs a registry whose token service gives one').toEqual(expect.any(String));
  await untagged(context, pushed);
  await expectPulled(context, pushed, await pullImage(context, pushed.repository, pushed.tag, registryAuthHeader({ identitytoken: identityToken ?? '' })));
});

check('images.pull.registry-token', {
  title: 'from 1.22 a pull with X-Registry-Auth {registrytoken}, a pull token of the registry\'s token service, brings back the image pushed',
  spec: '2 §4.1',
  since: '1.22',
  tags: ['stream', 'state'],
  requires: ['registry', 'token-service'],
  timeoutMs: 50_000,
  covers: ['2:POST /images/create:header:X-Registry-Auth', '2:version-rule:1.22:registry-auth-registrytoken'],
}, async (context) => {
  const pushed = await pushedFixture(context, 'regtoken');
  const setup = tokenSetup(context);
  const path = pushed.repository.slice(pushed.repository.indexOf('/') + 1);
  const token = expectTokenResponse(context.expect, await setup.client.post(passwordGrant(setup, { scope: `repository:${path}:pull` }))).access_token;
  await untagged(context, pushed);
  await expectPulled(context, pushed, await pullImage(context, pushed.repository, pushed.tag, registryAuthHeader({ registrytoken: String(token) })));
});

check('images.pull.absent-tag', {
  title: 'a pull of a tag the registry lacks answers 500 before any stream, with the error body of the version',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['error'],
  requires: ['registry'],
  covers: ['2:POST /images/create:query:fromImage', '2:POST /images/create:query:tag', '2:POST /images/create:status:500', '1:version-rule:1.24:json-errors'],
}, async (context) => {
  const user = registryUser(context);
  const repository = `${user.host}/${user.username}/${context.make.uniqueName('absent')}`;
  const res = await pullImage(context, repository, 'absent', passwordAuth(user));
  context.expect(res.status, `pull of ${repository}:absent: ${res.describe()}`).toBe(500);
  expectErrorBodyOfVersion(context, res);
});

check('images.pull.refused-credentials', {
  title: 'a pull whose X-Registry-Auth the token service refuses answers 500, and the image does not come',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['error'],
  requires: ['registry'],
  timeoutMs: 50_000,
  covers: ['2:POST /images/create:header:X-Registry-Auth', '2:POST /images/create:status:500'],
}, async (context) => {
  const { expect } = context;
  const pushed = await pushedFixture(context, 'refused');
  await untagged(context, pushed);
  const res = await pullImage(context, pushed.repository, pushed.tag, refusedAuth(context));
  expect(res.status, `pull with refused credentials: ${res.describe()}`).toBe(500);
  expectErrorBodyOfVersion(context, res);
  const after = await context.engine.get(`/images/${pushed.repository}:${pushed.tag}/json`);
  expect(after.status, 'the name was not pulled back').toBe(404);
});

check('images.push.refused-credentials', {
  title: 'a push whose X-Registry-Auth the token service refuses answers 200 and ends its stream with an error',
  spec: '2 §4.1',
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
  const res = await engine.post(`/images/${repository}/push`, { query: { tag: 'v1' }, headers: refusedAuth(context) });
  expect(res.status, `push: ${res.describe()}`).toBe(200);
  const messages = streamMessages(res);
  expect(messages.at(-1)?.error, `the push's last line is an error: ${res.describe()}`).toEqual(expect.any(String));
});

check('images.push.unknown-image', {
  title: 'a push of a name the target has no image of answers 404 with the error body of the version',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['error'],
  covers: ['2:POST /images/{name}/push:status:404'],
}, async (context) => {
  const name = context.make.uniqueName('nothing');
  const res = await context.engine.post(`/images/${name}/push`, { query: { tag: 'v1' }, headers: registryAuthHeader({}) });
  context.expect(res.status, `push of ${name}:v1: ${res.describe()}`).toBe(404);
  expectErrorBodyOfVersion(context, res);
});
