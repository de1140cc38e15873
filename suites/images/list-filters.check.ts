/**
 * What GET /images/json lists (spec/2 §4.1): every image with all=1, and the filters dangling=true,
 * label, before and since (from 1.24), and the `filter` name parameter; at docker level what dockerd
 * does beyond the spec (intermediate images hidden without all, dangling=false, several labels, the
 * names a name filter shows, the reference filter). Other checks create images at the same time, so
 * every listing is narrowed to this check's own images: by a label of its own besides the filter under
 * test (each filter narrows the list), or, for the label filter itself, by the ids it made.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { secondPassed } from '../daemon-events.ts';
import { bareImageId, committedImage, inspectImage, listImages, ownLabels, taggedFixture, uniqueImageName, type ImageSummary } from '../image-steps.ts';

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

/** An untagged parent image and its named child, both labelled with the check's own mark. */
async function parentAndChild(context: CheckContext): Promise<{ mark: string; parent: string; child: string }> {
  const { labels, mark } = ownLabels(context);
  const parent = await committedImage(context, { labels });
  const child = await committedImage(context, { from: parent, labels, name: uniqueImageName(context) });
  return { mark, parent, child };
}

check('images.list.all', {
  title: 'GET /images/json with all=1 lists all the images, an untagged parent image as well as its named child',
  spec: '2 §4',
  quote: [
    '| GET /images/json |',
    'all (boolean, default false)',
    'Booleans accept 1, True, true, 0, False, false.',
    'Filters parameters are JSON maps from string to array of string.',
    'label=key or key=value',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /images/json:query:all'],
}, async (context) => {
  const { mark, parent, child } = await parentAndChild(context);
  context.expect(ids(await listMarked(context, mark, {}, { all: 1 })), 'ids listed with all=1').toEqual(bareIds(child, parent));
});

check('images.list.default-hides-parents', {
  title: 'GET /images/json without all lists a named image but not its untagged parent (as dockerd)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const { mark, child } = await parentAndChild(context);
  context.expect(ids(await listMarked(context, mark)), 'ids listed without all').toEqual(bareIds(child));
});

/** An untagged image and a named one, both labelled with the check's own mark. */
async function untaggedAndNamed(context: CheckContext): Promise<{ mark: string; untagged: string; named: string }> {
  const { labels, mark } = ownLabels(context);
  const untagged = await committedImage(context, { labels });
  const named = await committedImage(context, { labels, name: uniqueImageName(context) });
  return { mark, untagged, named };
}

check('images.list.dangling', {
  title: 'the dangling=true filter lists an untagged image no container uses, and not a named image a container uses',
  spec: '2 §4',
  quote: [
    '| GET /images/json |',
    'filters (dangling=true; label=key or key=value; since and before from 1.24)',
    'Filters parameters are JSON maps from string to array of string.',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /images/json:query:filters.dangling'],
}, async (context) => {
  // The spec does not say what dangling means for images (for volumes it is "not in use"): an image
  // untagged and unused is dangling by either reading, one named and in use by neither.
  const { mark, untagged, named } = await untaggedAndNamed(context);
  await context.make.container({ Image: named, Cmd: ['true'] });
  const listed = ids(await listMarked(context, mark, { dangling: ['true'] }));
  context.expect({ untagged: listed.includes(bareImageId(untagged)), namedInUse: listed.includes(bareImageId(named)) }, `ids listed with dangling=true: ${JSON.stringify(listed)}`).toEqual({ untagged: true, namedInUse: false });
});

/** As dockerd: dangling=true lists an untagged image and dangling=false a named one, neither used by a container. */
for (const { id, dangling, listed, ...meta } of [
  { id: 'images.list.dangling-untagged', title: 'the dangling=true filter lists an untagged image and not a named one, neither used by a container (as dockerd: dangling means untagged)', dangling: 'true', listed: 'untagged' },
  { id: 'images.list.dangling-false', title: 'the dangling=false filter lists a named image and not an untagged one (as dockerd; the spec gives dangling=true only)', dangling: 'false', listed: 'named' },
] satisfies { id: string; title: string; dangling: string; listed: 'untagged' | 'named' }[]) {
  check(id, { ...meta, spec: '2 §4.1', level: 'docker', seen: 'dockerd 20.10.24', since: '1.18', tags: ['state'] }, async (context) => {
    const images = await untaggedAndNamed(context);
    context.expect(ids(await listMarked(context, images.mark, { dangling: [dangling] })), `ids listed with dangling=${dangling}`).toEqual(bareIds(images[listed]));
  });
}

/** Two images of the check's own, labelled shipshape.colour red and blue. */
async function redAndBlue(context: CheckContext): Promise<{ mark: string; red: string; blue: string }> {
  const { labels, mark } = ownLabels(context);
  const red = await committedImage(context, { labels: { ...labels, 'shipshape.colour': 'red' } });
  const blue = await committedImage(context, { labels: { ...labels, 'shipshape.colour': 'blue' } });
  return { mark, red, blue };
}

check('images.list.label', {
  title: 'the label filter takes key (any value) or key=value',
  spec: '2 §4',
  quote: [
    '| GET /images/json |',
    'filters (dangling=true; label=key or key=value; since and before from 1.24)',
    'Filters parameters are JSON maps from string to array of string.',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /images/json:query:filters.label'],
}, async (context) => {
  const { red, blue } = await redAndBlue(context);
  // One label per listing (the spec does not say how several combine); the answer is narrowed to the check's own images here.
  const own = new Set(bareIds(red, blue));
  const labelled = async (label: string) => ids(await listImages(context, { filters: JSON.stringify({ label: [label] }) })).filter((id) => own.has(id));
  const seen = { key: await labelled('shipshape.colour'), red: await labelled('shipshape.colour=red'), none: await labelled('shipshape.colour=green') };
  context.expect(seen, 'the check\'s ids listed per label filter').toEqual({ key: bareIds(red, blue), red: bareIds(red), none: [] });
});

check('images.list.label-all-match', {
  title: 'several label filters must all match (as dockerd)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const { mark, red } = await redAndBlue(context);
  const seen = { red: ids(await listMarked(context, mark, { label: ['shipshape.colour=red'] })), none: ids(await listMarked(context, mark, { label: ['shipshape.colour=green'] })) };
  context.expect(seen, `ids listed with the labels ${mark} and shipshape.colour=red, and with ${mark} and shipshape.colour=green`).toEqual({ red: bareIds(red), none: [] });
});

/**
 * Three images of the check's own, committed one after the other, each in a later second of the
 * daemon's clock: Created is in whole seconds (spec/2 §2.1), so a daemon may order by it.
 */
async function threeInOrder(context: CheckContext): Promise<{ mark: string; first: string; middle: string; last: string }> {
  const { labels, mark } = ownLabels(context);
  const commitOne = async () => {
    const id = await committedImage(context, { labels, name: uniqueImageName(context) });
    await secondPassed(context);
    return id;
  };
  const first = await commitOne();
  const middle = await commitOne();
  const last = await commitOne();
  return { mark, first, middle, last };
}

/**
 * From 1.24 the before and since filters name an image by its id, as dockerd reads them (the spec gives
 * them no meaning: "since and before from 1.24"): of three in order, the first is before the middle one
 * and the last since it. Whether the named image itself is listed either way passes.
 */
for (const { id, filter, listed, left, ...meta } of [
  { id: 'images.list.before', title: 'from 1.24 the before filter lists the images created before the given one (an image id) and not those after it, as dockerd does', filter: 'before', listed: 'first', left: 'last',
    covers: ['2:GET /images/json:query:filters.before', '2:version-rule:1.24:image-list-filters-since-before'] },
  { id: 'images.list.since', title: 'from 1.24 the since filter lists the images created after the given one (an image id) and not those before it, as dockerd does', filter: 'since', listed: 'last', left: 'first',
    covers: ['2:GET /images/json:query:filters.since', '2:version-rule:1.24:image-list-filters-since-before'] },
] satisfies { id: string; title: string; filter: 'before' | 'since'; listed: 'first' | 'last'; left: 'first' | 'last'; covers: string[] }[]) {
  check(id, { ...meta, spec: '2 §4.1', level: 'docker', seen: 'dockerd 20.10.24', since: '1.24', tags: ['state'], timeoutMs: 60_000 }, async (context) => {
    const images = await threeInOrder(context);
    const seen = ids(await listMarked(context, images.mark, { [filter]: [images.middle] })).filter((listedId) => listedId !== bareImageId(images.middle));
    context.expect(seen, `ids listed ${filter} ${images.middle} (the given image itself either way): the ${listed}, not the ${left}`).toEqual(bareIds(images[listed]));
  });
}

/** The fixture image's id, bare: what a listing of a name given to it must show. */
async function fixtureId(context: CheckContext): Promise<string> {
  return bareImageId((await inspectImage(context, context.session.fixtureImage)).Id);
}

/** The filter parameter names an image: by its repository, or by one of its names (repository:tag). */
for (const { id, otherName, filter, ...meta } of [
  { id: 'images.list.filter-name', title: 'the filter parameter with a repository lists only the image of that repository, with the name among its RepoTags', otherName: false, filter: (name: string) => name.split(':')[0] },
  // Two names of our own on the fixture image, which has its own name too.
  { id: 'images.list.filter-names', title: 'the filter parameter with a name (repository:tag) of an image that has other names lists only that image, with the name among its RepoTags', otherName: true, filter: (name: string) => name },
]) {
  const quote = ['| GET /images/json |', 'filter (only images with this name)', 'An image can be referenced by any RepoTags value or RepoDigests value.'];
  check(id, { ...meta, spec: '2 §4.1, §2.1', quote, since: '1.18', tags: ['state'], covers: ['2:GET /images/json:query:filter'] }, async (context) => {
    const name = await taggedFixture(context);
    if (otherName) await taggedFixture(context, 'other');
    const given = filter(name);
    const listed = await listImages(context, { filter: given });
    const seen = listed.map((image) => ({ id: bareImageId(image.Id), named: (image.RepoTags ?? []).includes(name) }));
    context.expect(seen, `images listed with filter=${given}: ${JSON.stringify(listed.map((image) => image.RepoTags))}`).toEqual([{ id: await fixtureId(context), named: true }]);
  });
}

check('images.list.filter-narrows-repo-tags', {
  title: 'with filter=<name>, the listed image shows only its names that match, not its other names (as dockerd; the docker CLI prints a row per name)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const name = await taggedFixture(context);
  await taggedFixture(context, 'other');
  const listed = await listImages(context, { filter: name });
  context.expect(listed.map((image) => image.RepoTags), `RepoTags of the images listed with filter=${name}`).toEqual([[name]]);
});

check('images.list.reference', {
  title: 'from 1.25 the reference filter (not in the spec) lists only the image a name matches, showing only that name in RepoTags (as dockerd)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.25',
  tags: ['state'],
}, async (context) => {
  const name = await taggedFixture(context);
  await taggedFixture(context, 'other');
  const listed = await listImages(context, { filters: JSON.stringify({ reference: [name] }) });
  const seen = listed.map((image) => ({ id: bareImageId(image.Id), RepoTags: image.RepoTags }));
  context.expect(seen, `images listed with reference=${name}`).toEqual([{ id: await fixtureId(context), RepoTags: [name] }]);
});
