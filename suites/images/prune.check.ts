/**
 * POST /images/prune (Docker's, API 1.25; the spec does not describe it): untagged images, or with
 * `dangling=false` every image no container uses, among those the filters select, are deleted; the
 * answer lists the Untagged and Deleted records. Each check prunes only images with its own label.
 */
import { check } from '../../harness/check.ts';
import { bareImageId, committedImage, imageStatus, uniqueImageName } from '../image-steps.ts';
import { pruned, pruneMark } from '../prune-steps.ts';

interface ImagesPruned {
  ImagesDeleted: Record<string, string>[] | null;
  SpaceReclaimed: number;
}

/** The digest form of an image id: a bare 64-hex id Podman 4.3 no longer has answers 500, not 404. */
function digestOf(id: string): string {
  return `sha256:${bareImageId(id)}`;
}

const DOCKER = { spec: '2 §4.1', level: 'docker', seen: 'dockerd 20.10.24', since: '1.25' } as const;

check('images.prune.dangling', {
  ...DOCKER,
  title: 'POST /images/prune deletes the untagged images its label filter selects, answering {Deleted: id}, and keeps the tagged ones',
  tags: ['state'],
}, async (context) => {
  const { labels, mark } = pruneMark(context);
  const untagged = await committedImage(context, { labels });
  const tagged = await committedImage(context, { labels, name: uniqueImageName(context) });
  const answer = await pruned<ImagesPruned>(context, 'images', mark);
  context.expect(answer.ImagesDeleted, `ImagesDeleted: ${JSON.stringify(answer)}`).toEqual([{ Deleted: untagged }]);
  context.expect(typeof answer.SpaceReclaimed, 'SpaceReclaimed').toBe('number');
  context.expect(await imageStatus(context, digestOf(untagged)), 'GET /images/{untagged}/json status after the prune').toBe(404);
  context.expect(await imageStatus(context, digestOf(tagged)), 'GET /images/{tagged}/json status after the prune').toBe(200);
});

check('images.prune.dangling-false', {
  ...DOCKER,
  title: 'POST /images/prune with dangling=false deletes tagged images too: {Untagged: name} then {Deleted: id}',
  tags: ['state'],
}, async (context) => {
  const { labels, mark } = pruneMark(context);
  const name = uniqueImageName(context);
  const tagged = await committedImage(context, { labels, name });
  const answer = await pruned<ImagesPruned>(context, 'images', mark, { dangling: ['false'] });
  context.expect(answer.ImagesDeleted, `ImagesDeleted: ${JSON.stringify(answer)}`).toEqual([{ Untagged: name }, { Deleted: tagged }]);
  context.expect(await imageStatus(context, digestOf(tagged)), 'GET /images/{tagged}/json status after the prune').toBe(404);
});
