/**
 * What GET /images/json lists (spec/2 §4.1): intermediate images only with all=1, and the filters
 * dangling, label, before and since (from 1.24), the `filter` name parameter and the reference filter.
 * Other checks create images at the same time, so every listing is narrowed to this check's own
 * images by a label of its own (a committed image inherits its container's labels).
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { bareImageId, committedImage, listImages, ownLabels, taggedFixture, uniqueImageName, type ImageSummary } from '../image-steps.ts';

/** Image ids, bare (a commit may answer its id without the `sha256:` of the listing) and sorted, for comparing sets. */
function bareIds(...given: string[]): string[] {
  return given.map(bareImageId).sort();
}

/** The ids of a listing, as {@link bareIds}. */
function ids(images: ImageSummary[]): string[] {
  return bareIds(...images.map((image) => image.Id));
}

/** GET /images/json narrowed to images carrying `mark`, with further filters and parameters. */
function listMarked(context: CheckContext, mark: string, filters: Record<string, string[]> = {}, query: Record<string, number> = {}): Promise<ImageSummary[]> {
  return listImages(context, { ...query, filters: JSON.stringify({ ...filters, label: [mark, ...(filters.label ?? [])] }) });
}

check('images.list.all', {
  title: 'GET /images/json lists an untagged parent image only with all=1',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /images/json:query:all'],
}, async (context) => {
  const { labels, mark } = ownLabels(context);
  const parent = await committedImage(context, { labels });
  const child = await committedImage(context, { from: parent, name: uniqueImageName(context) });
  const seen = { default: ids(await listMarked(context, mark)), all: ids(await listMarked(context, mark, {}, { all: 1 })) };
  context.expect(seen, 'ids listed without and with all=1').toEqual({ default: bareIds(child), all: bareIds(child, parent) });
});

check('images.list.dangling', {
  title: 'the dangling=true filter lists untagged images and not named ones; dangling=false the reverse',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /images/json:query:filters.dangling'],
}, async (context) => {
  const { labels, mark } = ownLabels(context);
  const untagged = await committedImage(context, { labels });
  const named = await committedImage(context, { labels, name: uniqueImageName(context) });
  const seen = { true: ids(await listMarked(context, mark, { dangling: ['true'] })), false: ids(await listMarked(context, mark, { dangling: ['false'] })) };
  context.expect(seen, 'ids listed per dangling filter').toEqual({ true: bareIds(untagged), false: bareIds(named) });
});

check('images.list.label', {
  title: 'the label filter takes key (any value) or key=value, and several labels must all match',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /images/json:query:filters.label'],
}, async (context) => {
  const { labels, mark } = ownLabels(context);
  const red = await committedImage(context, { labels: { ...labels, 'shipshape.colour': 'red' } });
  const blue = await committedImage(context, { labels: { ...labels, 'shipshape.colour': 'blue' } });
  const seen = {
    key: ids(await listMarked(context, mark, { label: ['shipshape.colour'] })),
    red: ids(await listMarked(context, mark, { label: ['shipshape.colour=red'] })),
    none: ids(await listMarked(context, mark, { label: ['shipshape.colour=green'] })),
  };
  context.expect(seen, 'ids listed per label filter').toEqual({ key: bareIds(red, blue), red: bareIds(red), none: [] });
});

/** Three images of the check's own, committed one after the other. */
async function threeInOrder(context: CheckContext): Promise<{ mark: string; first: string; middle: string; last: string }> {
  const { labels, mark } = ownLabels(context);
  const commitOne = () => committedImage(context, { labels, name: uniqueImageName(context) });
  const first = await commitOne();
  const middle = await commitOne();
  const last = await commitOne();
  return { mark, first, middle, last };
}

check('images.list.before', {
  title: 'from 1.24 the before filter lists the images created before the given one',
  spec: '2 §4.1',
  since: '1.24',
  tags: ['state'],
  covers: ['2:GET /images/json:query:filters.before', '2:version-rule:1.24:image-list-filters-since-before'],
}, async (context) => {
  const { mark, first, middle } = await threeInOrder(context);
  context.expect(ids(await listMarked(context, mark, { before: [middle] })), `ids listed before ${middle}`).toEqual(bareIds(first));
});

check('images.list.since', {
  title: 'from 1.24 the since filter lists the images created after the given one',
  spec: '2 §4.1',
  since: '1.24',
  tags: ['state'],
  covers: ['2:GET /images/json:query:filters.since', '2:version-rule:1.24:image-list-filters-since-before'],
}, async (context) => {
  const { mark, middle, last } = await threeInOrder(context);
  context.expect(ids(await listMarked(context, mark, { since: [middle] })), `ids listed since ${middle}`).toEqual(bareIds(last));
});

check('images.list.filter-name', {
  title: 'the filter parameter lists only the images of that repository',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /images/json:query:filter'],
}, async (context) => {
  const name = await taggedFixture(context);
  const [repository] = name.split(':');
  const listed = await listImages(context, { filter: repository });
  const names = listed.flatMap((image) => image.RepoTags ?? []).filter((tag) => tag.startsWith(`${repository}:`));
  context.expect({ items: listed.length, names }, `images listed with filter=${repository}`).toEqual({ items: 1, names: [name] });
});

check('images.list.reference', {
  title: 'the reference filter lists only the images a name matches',
  spec: '2 §4.1',
  since: '1.25',
  tags: ['state'],
  covers: ['2:GET /images/json'],
}, async (context) => {
  const name = await taggedFixture(context);
  const listed = await listImages(context, { filters: JSON.stringify({ reference: [name] }) });
  context.expect(listed.map((image) => image.RepoTags ?? []), `RepoTags of the images listed with reference=${name}`).toEqual([context.expect.arrayContaining([name])]);
});

check('images.list.filter-names', {
  title: 'with filter=<name>, a listed image shows only its names that match: not its other tags (as dockerd; the docker CLI prints a row per name)',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /images/json:query:filter'],
}, async (context) => {
  // Two names of our own on the fixture image, which has its own name too: only the one asked for shows.
  const name = await taggedFixture(context);
  await taggedFixture(context, 'other');
  const listed = await listImages(context, { filter: name });
  context.expect(listed.map((image) => image.RepoTags), `RepoTags of the images listed with filter=${name}`).toEqual([[name]]);
});
