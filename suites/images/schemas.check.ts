/**
 * The shapes of the image resources per API version (spec/2 §2.1): list items, inspect, history.
 * Other checks create images at the same time, so each check judges its own image's item. The shapes
 * of delete, commit, build and the progress streams are asserted by the checks that get them.
 */
import { check } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { CONTAINER_CONFIG_HOST_FIELDS, historySchema, imageInspectSchema, imageSummarySchema } from '../../harness/schemas/image-schemas.ts';
import { bareImageId, inspectImage, listImages, taggedFixture, type ImageSummary } from '../image-steps.ts';

/** A digest reference (spec/2 §2.1): `<repository>@<algorithm>:<hex>`. */
const DIGEST_REFERENCE = /^[^@\s]+@[a-z0-9]+(?:[+._-][a-z0-9]+)*:[0-9a-fA-F]{32,}$/;

check('images.list.schema', {
  title: 'GET /images/json items have RepoTags, Id, Created, Size, VirtualSize, and Labels from 1.20',
  spec: '2 §2.1',
  since: '1.18',
  tags: ['schema'],
  covers: ['2:GET /images/json', '2:version-rule:1.20:image-list-labels'],
}, async (context) => {
  const name = await taggedFixture(context);
  const item = (await listImages(context)).find((image) => image.RepoTags?.includes(name));
  context.expect(item, `the image named ${name} in the list`).toBeDefined();
  assertMatchesSchema(item, imageSummarySchema(context.version), `the list item at ${context.version}`);
  context.expect(bareImageId(item?.Id ?? ''), `Id of the item named ${name}`).toBe(bareImageId((await inspectImage(context, name)).Id));
});

check('images.list.digests', {
  title: 'GET /images/json?digests=1 gives each item RepoDigests, each a `<repository>@<algorithm>:<hex>` reference',
  spec: '2 §2.1',
  since: '1.18',
  tags: ['schema'],
  covers: ['2:GET /images/json:query:digests'],
}, async (context) => {
  const name = await taggedFixture(context);
  const item = (await listImages(context, { digests: 1 })).find((image) => image.RepoTags?.includes(name));
  context.expect(item, `the image named ${name} in the list`).toBeDefined();
  const { RepoDigests: digests } = item as ImageSummary;
  context.expect(digests === null || Array.isArray(digests), `RepoDigests is an array (or null for none): ${JSON.stringify(digests)}`).toBe(true);
  const malformed = (digests ?? []).filter((digest) => !DIGEST_REFERENCE.test(digest));
  context.expect(malformed, 'RepoDigests that are not digest references').toEqual([]);
});

check('images.inspect.schema', {
  title: 'GET /images/{name}/json answers Created, Container, ContainerConfig, Id, Parent, Size, and RepoTags and RepoDigests from 1.21',
  spec: '2 §2.1',
  since: '1.18',
  tags: ['schema'],
  covers: ['2:GET /images/{name}/json', '2:GET /images/{name}/json:status:200', '2:version-rule:1.21:image-inspect-repo-tags-digests'],
}, async (context) => {
  const name = await taggedFixture(context);
  assertMatchesSchema(await inspectImage(context, name), imageInspectSchema(context.version), `the image inspect object at ${context.version}`);
});

check('images.inspect.container-config-fields', {
  title: 'the ContainerConfig of image inspect has Dns and VolumesFrom',
  spec: '2 §2.1',
  since: '1.18',
  tags: ['schema'],
  covers: ['2:GET /images/{name}/json'],
}, async (context) => {
  const image = (await inspectImage(context, await taggedFixture(context))) as unknown as { ContainerConfig?: Record<string, unknown> };
  const present = CONTAINER_CONFIG_HOST_FIELDS.filter((field) => field in (image.ContainerConfig ?? {}));
  context.expect(present, `fields of ContainerConfig ${JSON.stringify(Object.keys(image.ContainerConfig ?? {}))}`).toEqual([...CONTAINER_CONFIG_HOST_FIELDS]);
});

check('images.inspect.repo-tags', {
  title: 'from 1.21 image inspect lists the names of the image in RepoTags',
  spec: '2 §2.1',
  since: '1.21',
  tags: ['state'],
  covers: ['2:GET /images/{name}/json', '2:version-rule:1.21:image-inspect-repo-tags-digests'],
}, async (context) => {
  const name = await taggedFixture(context);
  const image = await inspectImage(context, name);
  context.expect(image.RepoTags, `RepoTags of the image just named ${name}`).toContain(name);
});

check('images.history.schema', {
  title: 'GET /images/{name}/history answers items of Id, Created, CreatedBy, and at 1.25 Tags, Size and Comment',
  spec: '2 §2.1',
  since: '1.18',
  tags: ['schema'],
  covers: ['2:GET /images/{name}/history', '2:GET /images/{name}/history:status:200', '2:version-rule:1.25:image-history-tags-size-comment'],
}, async (context) => {
  const name = await taggedFixture(context);
  const res = await context.engine.get(`/images/${encodeURIComponent(name)}/history`);
  context.expect(res.status, 'status').toBe(200);
  assertMatchesSchema(res.json(), historySchema(context.version), `the history at ${context.version}`);
});
