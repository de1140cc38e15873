/**
 * GET /images/{name}/json and /history (spec/2 §4.1): an image is reached by any of its names or its
 * id, history holds the image and its parent (at docker level: newest first, with the command that
 * made each), and an unknown image is 404.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { bareImageId, committedImage, imageHistory, inspectImage, taggedFixture, uniqueImageName } from '../image-steps.ts';

check('images.inspect.by-name-and-id', {
  title: 'image inspect reaches the same image by its name and by its full id',
  spec: '2 §2.1, §4.1, §6.3',
  quote: [
    'An image can be referenced by any RepoTags value or RepoDigests value.',
    'names (repeatable, name or id)',
    'an image id returns that image and parents without a `repositories` file',
    'Deleting images by id, or deleting the last tag that refers to an image, may also emit delete.',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /images/{name}/json', '2:GET /images/{name}/json:status:200'],
}, async (context) => {
  // Short id prefixes are given for `id_or_name` paths only (spec/1 §4.3): the next check, at docker level.
  const { Id } = await inspectImage(context, await taggedFixture(context));
  context.expect((await inspectImage(context, Id)).Id, 'id answered for the full id').toBe(Id);
});

check('images.inspect.by-id-prefix', {
  title: 'image inspect reaches an image by a unique 12-digit prefix of its id (as dockerd)',
  spec: '2 §2.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const { Id } = await inspectImage(context, await taggedFixture(context));
  context.expect((await inspectImage(context, bareImageId(Id).slice(0, 12))).Id, 'id answered for a 12-digit prefix').toBe(Id);
});

check('images.inspect.unknown', {
  title: 'inspecting an image the target does not have answers 404 with the error body of the version',
  spec: '2 §4.1, 1 §7.1, §7.2',
  quote: [
    '| GET /images/{name}/json |',
    '200 image inspect | 200, 404, 500 |',
    'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.',
    '404 no such container, image, exec instance, volume, network, service or task',
  ],
  since: '1.18',
  tags: ['error'],
  covers: ['2:GET /images/{name}/json:status:404'],
}, async (context) => {
  const res = await context.engine.get(`/images/${uniqueImageName(context, 'missing')}/json`);
  context.expect(res.status, 'status').toBe(404);
  expectErrorBodyOfVersion(context, res);
});

/** A child image committed from a parent committed from the fixture image, each after a command of its own. */
async function childAndParent(context: CheckContext): Promise<{ parent: string; child: string }> {
  const parent = await committedImage(context, { cmd: ['touch', '/first'] });
  const child = await committedImage(context, { from: parent, cmd: ['touch', '/second'] });
  return { parent, child };
}

check('images.history.order', {
  title: 'the history of an image holds an item for the image and one for its parent',
  spec: '2 §2.1, §4.1',
  quote: [
    'History item: Id, Created (integer), CreatedBy (string)',
    'Id, Parent, Size',
    '| GET /images/{name}/history |',
    '200 array of history items',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /images/{name}/history', '2:GET /images/{name}/history:status:200'],
}, async (context) => {
  // The spec gives the items' fields only: neither their order nor what CreatedBy says.
  const { parent, child } = await childAndParent(context);
  const history = await imageHistory(context, child);
  const ids = new Set(history.map((item) => bareImageId(item.Id)));
  context.expect({ child: ids.has(bareImageId(child)), parent: ids.has(bareImageId(parent)) }, `items for the image and its parent among ${JSON.stringify(history.map((item) => item.Id))}`).toEqual({ child: true, parent: true });
});

check('images.history.newest-first', {
  title: 'history lists the image, then its parents, newest first, each with the command that made it as CreatedBy (as dockerd)',
  spec: '2 §2.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const { parent, child } = await childAndParent(context);
  const history = await imageHistory(context, child);
  const [newest, next] = history;
  context.expect([newest?.Id, next?.Id], `ids of the first two entries of ${JSON.stringify(history)}`).toEqual([child, parent]);
  context.expect(newest?.CreatedBy, 'CreatedBy of the image').toContain('touch /second');
  context.expect(next?.CreatedBy, 'CreatedBy of its parent').toContain('touch /first');
  const created = history.map((item) => item.Created);
  context.expect(created, 'Created of the entries, newest first').toEqual([...created].sort((a, b) => b - a));
});

check('images.history.unknown', {
  title: 'the history of an image the target does not have answers 404 with the error body of the version',
  spec: '2 §4.1, 1 §7.1, §7.2',
  quote: [
    '| GET /images/{name}/history |',
    '200 array of history items | 200, 404, 500 |',
    'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.',
    '404 no such container, image, exec instance, volume, network, service or task',
  ],
  since: '1.18',
  tags: ['error'],
  covers: ['2:GET /images/{name}/history:status:404'],
}, async (context) => {
  const res = await context.engine.get(`/images/${uniqueImageName(context, 'missing')}/history`);
  context.expect(res.status, 'status').toBe(404);
  expectErrorBodyOfVersion(context, res);
});
