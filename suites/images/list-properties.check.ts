/**
 * GET /images/json's filters as a property (spec/2 §4.1): a small random world of images committed
 * from the fixture image with random labels, some named and used by a running container, the others
 * untagged and unused; then random queries of all, the dangling=true and label (key or key=value) filters, from
 * 1.24 since and before (an image's Id as the target gave it: a world image's from the list, or the
 * fixture image's from its inspect), and the `filter` name
 * parameter, alone and together, each answer compared with what the spec's words give over that world.
 * The world comes from the run's seed as the queries do (`--seed` replays both). Other checks make
 * images at the same time: only the world's images in an answer are judged.
 *
 * Left out, as the spec leaves them open: what all=false leaves out (without all=1 the world's images
 * listed need only be among those the filters match), what dangling means for an image (an untagged
 * image no container uses is dangling by any reading, a named one a running container uses by none: the world
 * has only these two kinds), dangling=false, whether since and before include the given image and
 * images created in the same second as it (Created is whole seconds: such images may be listed or not),
 * and how several values of one key combine (one value per key; different keys and the `filter`
 * parameter must all hold, as each narrows the list).
 */
import fc from 'fast-check';
import { check, type CheckContext } from '../../harness/check.ts';
import type { Query } from '../../harness/client/engine-client.ts';
import { assertProperty } from '../../harness/property-check.ts';
import { atLeast, type ApiVersion } from '../../protocol/versions.ts';
import { startContainer } from '../container-steps.ts';
import { secondPassed } from '../daemon-events.ts';
import { bareImageId, committedImage, inspectImage, listImages, uniqueImageName } from '../image-steps.ts';

/** Queries per run: each is one GET /images/json. */
const RUNS = 25;

const KEYS = ['shipshape.colour', 'shipshape.size'];
const VALUES = ['red', 'blue'];

interface ImagePlan {
  /** named, and used by a running container; or untagged and used by none */
  named: boolean;
  labels: Record<string, string>;
}

const labels = fc.dictionary(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES), { maxKeys: 2 });
/** The images, and from 1.24 where the daemon's clock moves on a second between them (so that since and before have some to tell apart). */
const world = fc.record({
  images: fc.array(fc.record({ named: fc.boolean(), labels }), { minLength: 2, maxLength: 4 }),
  split: fc.nat(3),
});

/** A reference for since and before: a world image (by index), or the fixture image. */
type ImageRef = { of: number } | { fixture: true };
const imageRef: fc.Arbitrary<ImageRef> = fc.oneof(fc.record({ of: fc.nat(3) }), fc.constant({ fixture: true as const }));

function query(version: ApiVersion) {
  return fc.record({
    // booleans accept 1, True, true, 0, False, false
    all: fc.constantFrom('1', 'true', 'True', '0', 'false', 'False'),
    dangling: fc.constant('true'),
    label: fc.oneof(fc.constantFrom(...KEYS, 'shipshape.absent'), fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES)).map(([key, value]) => `${key}=${value}`)),
    /** the `filter` parameter: a named world image's name (by index among the named), or a name no image has */
    name: fc.oneof(fc.record({ of: fc.nat(3) }), fc.constant({ absent: true as const })),
    ...(atLeast(version, '1.24') ? { since: imageRef, before: imageRef } : {}),
  }, { requiredKeys: [] });
}

interface Image {
  /** the Id bare of any `sha256:`, for comparing ids */
  id: string;
  /** the Id exactly as GET /images/json?all=1 gave it, sent as a since or before value */
  listedId: string;
  name?: string;
  labels: Record<string, string>;
  /** Created of the listing, Unix seconds */
  created: number;
}

/** Whether an image must be listed, must not be, or either may hold (what the spec leaves open). */
type Verdict = 'listed' | 'not listed' | 'either';

/** Every filter must hold: one that does not rules the image out, one left open leaves it open. */
function every(verdicts: Verdict[]): Verdict {
  if (verdicts.includes('not listed')) return 'not listed';
  return verdicts.includes('either') ? 'either' : 'listed';
}

const when = (holds: boolean): Verdict => (holds ? 'listed' : 'not listed');

/** Later, earlier, or in the same second (either). */
function compared(created: number, than: number, later: boolean): Verdict {
  if (created === than) return 'either';
  return when(later ? created > than : created < than);
}

/** What the spec's words give for one filter value and one image of the world; `createdOf` maps a since/before value to its Created. */
function verdict(key: string, value: string, image: Image, createdOf: (id: string) => number): Verdict {
  switch (key) {
    case 'dangling':
      return when(image.name === undefined);
    case 'label': {
      const [label = '', ...rest] = value.split('=');
      return when(rest.length === 0 ? label in image.labels : image.labels[label] === rest.join('='));
    }
    case 'since':
      return compared(image.created, createdOf(value), true);
    case 'before':
      return compared(image.created, createdOf(value), false);
    default:
      throw new Error(`no oracle for the filter ${key}`);
  }
}

/** The world's item at `index`, counted round. */
function pick<T>(items: T[], index: number): T {
  const item = items[index % items.length];
  if (item === undefined) throw new Error('nothing to pick from');
  return item;
}

/** A command that runs until the check ends, so that a named image is used by a running container. */
const LONG_RUNNING = ['sleep', '300'];

/** Commits the world's images (each named one then used by a started, long-running container); returns them with their ids, names and Created. */
async function buildWorld(context: CheckContext, plan: { images: ImagePlan[]; split: number }): Promise<Image[]> {
  const made: Omit<Image, 'created' | 'listedId'>[] = [];
  for (const [index, image] of plan.images.entries()) {
    if (atLeast(context.version, '1.24') && index > 0 && index === plan.split % plan.images.length) await secondPassed(context);
    const name = image.named ? uniqueImageName(context, 'iq') : undefined;
    const id = bareImageId(await committedImage(context, { labels: image.labels, ...(name ? { name } : {}) }));
    if (name) await startContainer(context, await context.make.container({ Image: name, Cmd: LONG_RUNNING }));
    made.push({ id, ...(name ? { name } : {}), labels: image.labels });
  }
  const listed = new Map((await listImages(context, { all: 1 })).map((item) => [bareImageId(item.Id), item]));
  return made.map((image) => {
    const item = listed.get(image.id);
    context.expect(item, `world image ${image.id} in GET /images/json?all=1`).toBeDefined();
    context.expect(item?.Created, `the Created of world image ${image.id} in GET /images/json?all=1`).toBeTypeOf('number');
    return { ...image, listedId: item?.Id ?? image.id, created: item?.Created ?? 0 };
  });
}

check('images.list.property-filters', {
  title: 'over a random world of images, GET /images/json with random all, dangling, label, since, before and filter parameters, alone and together, lists the images every filter given matches (all of them with all=1) and no other',
  spec: '2 §4, §2.1, 1 §4.1',
  quote: [
    '| GET /images/json | all (boolean, default false), filters (dangling=true; label=key or key=value; since and before from 1.24), filter (only images with this name), digests (1 adds RepoDigests) | none | 200 array of image list items | not shown |',
    'Booleans accept 1, True, true, 0, False, false.',
    'Filters parameters are JSON maps from string to array of string.',
    'Created (integer, Unix seconds)',
    'An image can be referenced by any RepoTags value or RepoDigests value.',
    'since (container id), before (container id)',
  ],
  since: '1.18',
  tags: ['state', 'property'],
  timeoutMs: 60_000,
  covers: ['2:GET /images/json:query:all', '2:GET /images/json:query:filters.dangling', '2:GET /images/json:query:filters.label', '2:GET /images/json:query:filters.since', '2:GET /images/json:query:filters.before', '2:GET /images/json:query:filter', '2:version-rule:1.24:image-list-filters-since-before'],
}, async (context) => {
  const plan = fc.sample(world, { seed: context.session.seed, numRuns: 1 })[0] ?? { images: [], split: 0 };
  const images = await buildWorld(context, plan);
  const named = images.filter((image) => image.name !== undefined);
  const fixture = await inspectImage(context, context.session.fixtureImage);
  const fixtureId = bareImageId(fixture.Id);
  const fixtureItem = (await listImages(context, { all: 1 })).find((item) => bareImageId(item.Id) === fixtureId);
  context.expect(fixtureItem, 'the fixture image in GET /images/json?all=1').toBeDefined();
  const createdOf = (id: string) => (bareImageId(id) === fixtureId ? fixtureItem?.Created ?? 0 : images.find((image) => image.id === bareImageId(id))?.created ?? 0);
  const described = JSON.stringify(images.map(({ id, name, labels: given, created }) => ({ id: id.slice(0, 12), name, labels: given, created })));
  await assertProperty(context, fc.asyncProperty(query(context.version), async (asked) => {
    const filters: Record<string, string[]> = {};
    if (asked.dangling) filters.dangling = [asked.dangling];
    if (asked.label) filters.label = [asked.label];
    for (const key of ['since', 'before'] as const) {
      const ref = (asked as Partial<Record<'since' | 'before', ImageRef>>)[key];
      if (ref) filters[key] = ['fixture' in ref ? fixture.Id : pick(images, ref.of).listedId];
    }
    const name = asked.name && ('absent' in asked.name || named.length === 0 ? `${uniqueImageName(context, 'none')}` : pick(named, asked.name.of).name);
    const params: Query = { ...(asked.all ? { all: asked.all } : {}), ...(Object.keys(filters).length > 0 ? { filters: JSON.stringify(filters) } : {}), ...(name ? { filter: name } : {}) };
    const listed = new Set((await listImages(context, params)).map((item) => bareImageId(item.Id)));
    const all = asked.all === '1' || asked.all === 'true' || asked.all === 'True';
    const wrong = images.flatMap((image) => {
      const matched = every([...Object.entries(filters).map(([key, [value = '']]) => verdict(key, value, image, createdOf)), ...(name ? [when(image.name === name)] : [])]);
      // without all=1 the spec does not say which matching images are left out
      const expected = matched === 'listed' && !all ? 'either' : matched;
      const seen = listed.has(image.id) ? 'listed' : 'not listed';
      return expected === 'either' || expected === seen ? [] : [`${image.id.slice(0, 12)}: ${seen}, should be ${expected}`];
    });
    context.expect(wrong, `the world's images listed with ${JSON.stringify(params)} against the spec's reading (world: ${described}; fixture Created ${fixtureItem?.Created})`).toEqual([]);
  }), RUNS);
});
