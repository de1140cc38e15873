/**
 * POST /images/{name}/tag (spec/2 §4.1): 201 with no body, the new name reaches the same image, a
 * name moves off the image it was on (up to 1.23 with force), a name taken without force (up to 1.23,
 * and from 1.24, where force is gone) is either moved (201) or refused as a conflict (409), an unknown
 * image is 404 and a missing repository 400. At docker level: names outside dockerd's reference
 * grammar are refused, and from 1.24 a taken name moves.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import type { Query } from '../../harness/client/engine-client.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { bareImageId, committedImage, inspectImage, tagImage, taggedFixture, uniqueImageName } from '../image-steps.ts';

check('images.tag.created', {
  title: 'POST /images/{name}/tag answers 201 with no body, and the new name refers to the same image',
  spec: '2 §4.1, §2.1',
  quote: [
    '| POST /images/{name}/tag |',
    'repo (repository to tag in), tag (new tag), force (boolean, up to 1.23 only)',
    '201 no body | 201, 400, 404, 409, 500 |',
    'An image can be referenced by any RepoTags value or RepoDigests value.',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['2:POST /images/{name}/tag', '2:POST /images/{name}/tag:query:repo', '2:POST /images/{name}/tag:query:tag', '2:POST /images/{name}/tag:status:201'],
}, async (context) => {
  const { expect, session } = context;
  const name = uniqueImageName(context, 't');
  const res = await tagImage(context, session.fixtureImage, name);
  expect(res.status, 'status').toBe(201);
  expect(res.text(), 'body').toBe('');
  const [tagged, fixture] = [await inspectImage(context, name), await inspectImage(context, session.fixtureImage)];
  expect(tagged.Id, `id of ${name}`).toBe(fixture.Id);
});

check('images.tag.unknown-image', {
  title: 'tagging an image the target does not have answers 404 with the error body of the version',
  spec: '2 §4.1, 1 §7.1, §7.2',
  quote: [
    '| POST /images/{name}/tag |',
    '201 no body | 201, 400, 404, 409, 500 |',
    'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.',
    '404 no such container, image, exec instance, volume, network, service or task',
  ],
  since: '1.18',
  tags: ['error'],
  covers: ['2:POST /images/{name}/tag:status:404'],
}, async (context) => {
  const res = await tagImage(context, uniqueImageName(context, 'missing'), uniqueImageName(context, 't'));
  context.expect(res.status, 'status').toBe(404);
  expectErrorBodyOfVersion(context, res);
});

check('images.tag.invalid-name', {
  title: 'tagging with an empty repository (no repository to tag in) answers 400 with the error body of the version',
  spec: '2 §4.1, 1 §7.1, §7.2',
  quote: [
    '| POST /images/{name}/tag |',
    'repo (repository to tag in)',
    '201 no body | 201, 400, 404, 409, 500 |',
    'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.',
    '400 bad parameter',
  ],
  since: '1.18',
  tags: ['error'],
  covers: ['2:POST /images/{name}/tag:query:repo', '2:POST /images/{name}/tag:status:400'],
}, async (context) => {
  // The spec gives no grammar of names; a missing repository is a bad parameter (spec/1 §7.2) by any.
  const res = await context.engine.post(`/images/${encodeURIComponent(context.session.fixtureImage)}/tag`, { query: { repo: '', tag: 'latest' } });
  context.expect(res.status, `status: ${res.describe()}`).toBe(400);
  expectErrorBodyOfVersion(context, res);
});

check('images.tag.invalid-reference', {
  title: 'tagging with an upper-case repository or a tag with `!` is refused with an error status, and makes no name (as dockerd: 500)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['error'],
}, async (context) => {
  const { expect, make, session } = context;
  const [upperCase, badTag] = [`${make.uniqueName('T').toUpperCase()}:latest`, `${make.uniqueName('t')}:bad!tag`];
  const statuses = { upperCase: (await tagImage(context, session.fixtureImage, upperCase)).status, badTag: (await tagImage(context, session.fixtureImage, badTag)).status };
  expect({ upperCase: statuses.upperCase >= 400, badTag: statuses.badTag >= 400 }, `refused: statuses ${JSON.stringify(statuses)} for ${upperCase} and ${badTag}`).toEqual({ upperCase: true, badTag: true });
});

/** A name on the fixture image, and an image of the check's own that the name is then given to. */
async function nameToMove(context: CheckContext): Promise<{ name: string; fixtureId: string; ownId: string }> {
  const name = await taggedFixture(context);
  const ownId = await committedImage(context, {});
  const fixtureId = (await inspectImage(context, context.session.fixtureImage)).Id;
  return { name, fixtureId, ownId };
}

check('images.tag.force-moves', {
  title: 'up to 1.23 tagging with force=1 and a name another image has moves the name to the tagged image',
  spec: '2 §4.1',
  quote: ['| POST /images/{name}/tag |', 'repo (repository to tag in), tag (new tag), force (boolean, up to 1.23 only)', '201 no body | 201, 400, 404, 409, 500 |'],
  since: '1.18',
  until: '1.23',
  tags: ['state'],
  covers: ['2:POST /images/{name}/tag:query:force'],
}, async (context) => {
  const { name, ownId } = await nameToMove(context);
  const res = await tagImage(context, ownId, name, { force: 1 });
  context.expect(res.status, 'status').toBe(201);
  // A commit may answer its id without the `sha256:` inspect puts before it.
  context.expect(bareImageId((await inspectImage(context, name)).Id), `the image ${name} names now`).toBe(bareImageId(ownId));
});

check('images.tag.moves', {
  title: 'from 1.24 tagging with a name another image has moves the name to the tagged image (as dockerd)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.24',
  tags: ['state'],
}, async (context) => {
  const { name, ownId } = await nameToMove(context);
  const res = await tagImage(context, ownId, name);
  context.expect(res.status, 'status').toBe(201);
  context.expect(bareImageId((await inspectImage(context, name)).Id), `the image ${name} names now`).toBe(bareImageId(ownId));
});

/** The outcome of giving an image a name another image has: moved (201, the name on the tagged image) or refused (409, left where it was). */
async function expectMovedOrRefused(context: CheckContext, query: Query): Promise<void> {
  const { name, fixtureId, ownId } = await nameToMove(context);
  const res = await tagImage(context, ownId, name, query);
  const outcome = { status: res.status, names: bareImageId((await inspectImage(context, name)).Id) };
  const moved = { status: 201, names: bareImageId(ownId) };
  const refused = { status: 409, names: bareImageId(fixtureId) };
  context.expect([moved, refused], `the status, and the image ${name} names after (moved: ${moved.names}, left: ${refused.names})`).toContainEqual(outcome);
  if (res.status === 409) expectErrorBodyOfVersion(context, res);
}

check('images.tag.taken-name', {
  title: 'from 1.24 (no force) tagging with a name another image has either moves the name (201) or refuses as a conflict (409) and leaves it where it was',
  spec: '2 §4.1, 1 §7.1, §7.2',
  quote: [
    '| POST /images/{name}/tag |',
    'repo (repository to tag in), tag (new tag), force (boolean, up to 1.23 only)',
    '201 no body | 201, 400, 404, 409, 500 |',
    'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.',
    '409 conflict',
  ],
  since: '1.24',
  tags: ['state', 'error'],
  covers: ['2:POST /images/{name}/tag:query:repo', '2:POST /images/{name}/tag:query:tag', '2:version-rule:1.24:image-tag-force-removed'],
}, async (context) => {
  // Without force the spec does not say whether a taken name moves: 409 stays among the statuses.
  await expectMovedOrRefused(context, {});
});

check('images.tag.conflict', {
  title: 'up to 1.23 tagging without force with a name another image has either moves the name (201) or refuses as a conflict (409) and leaves it where it was',
  spec: '2 §4.1, 1 §7.1, §7.2',
  quote: [
    '| POST /images/{name}/tag |',
    'repo (repository to tag in), tag (new tag), force (boolean, up to 1.23 only)',
    '201 no body | 201, 400, 404, 409, 500 |',
    'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.',
    '409 conflict',
  ],
  since: '1.18',
  until: '1.23',
  tags: ['state', 'error'],
  covers: ['2:POST /images/{name}/tag:query:repo', '2:POST /images/{name}/tag:query:tag', '2:POST /images/{name}/tag:status:409'],
}, async (context) => {
  // force (up to 1.23) implies a taken name may be refused without it, but the spec does not say it must be.
  await expectMovedOrRefused(context, {});
});
