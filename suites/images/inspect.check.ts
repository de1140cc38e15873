/**
 * GET /images/{name}/json and /history (spec/2 §4.1): an image is reached by any of its names or its
 * id, history lists the image and its parents newest first with the command that made each, and an
 * unknown image is 404.
 */
import { check } from '../../harness/check.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { committedImage, imageHistory, inspectImage, taggedFixture, uniqueImageName } from '../image-steps.ts';

check('images.inspect.by-name-and-id', {
  title: 'image inspect reaches the same image by its name, its full id and a unique prefix of the id',
  spec: '2 §2.1',
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /images/{name}/json', '2:GET /images/{name}/json:status:200'],
}, async (context) => {
  const { Id } = await inspectImage(context, await taggedFixture(context));
  const hex = Id.replace(/^sha256:/, '');
  const seen = [(await inspectImage(context, Id)).Id, (await inspectImage(context, hex.slice(0, 12))).Id];
  context.expect(seen, 'ids answered for the full id and a 12-digit prefix').toEqual([Id, Id]);
});

check('images.inspect.unknown', {
  title: 'inspecting an image the target does not have answers 404 with the error body of the version',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['error'],
  covers: ['2:GET /images/{name}/json:status:404'],
}, async (context) => {
  const res = await context.engine.get(`/images/${uniqueImageName(context, 'missing')}/json`);
  context.expect(res.status, 'status').toBe(404);
  expectErrorBodyOfVersion(context, res);
});

check('images.history.order', {
  title: 'history lists the image, then its parents, newest first, each with the command that made it as CreatedBy',
  spec: '2 §2.1',
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /images/{name}/history', '2:GET /images/{name}/history:status:200'],
}, async (context) => {
  const parent = await committedImage(context, { cmd: ['touch', '/first'] });
  const child = await committedImage(context, { from: parent, cmd: ['touch', '/second'] });
  const history = await imageHistory(context, child);
  const [newest, next] = history;
  const seen = { ids: [newest?.Id, next?.Id], createdBy: [newest?.CreatedBy, next?.CreatedBy] };
  context.expect(seen.ids, `ids of the first two entries of ${JSON.stringify(history)}`).toEqual([child, parent]);
  context.expect(seen.createdBy[0], 'CreatedBy of the image').toContain('touch /second');
  context.expect(seen.createdBy[1], 'CreatedBy of its parent').toContain('touch /first');
  const created = history.map((item) => item.Created);
  context.expect(created, 'Created of the entries, newest first').toEqual([...created].sort((a, b) => b - a));
});

check('images.history.unknown', {
  title: 'the history of an image the target does not have answers 404 with the error body of the version',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['error'],
  covers: ['2:GET /images/{name}/history:status:404'],
}, async (context) => {
  const res = await context.engine.get(`/images/${uniqueImageName(context, 'missing')}/history`);
  context.expect(res.status, 'status').toBe(404);
  expectErrorBodyOfVersion(context, res);
});
