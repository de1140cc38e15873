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
const DIGEST_REFERENCE = /^[^@\s]+@[^@:\s]+:[0-9a-fA-F]+$/;

check('images.list.schema', {
  title: 'GET /images/json items have RepoTags, Id, Created, Size, VirtualSize, and Labels from 1.20',
  spec: '2 §2.1, §4.1',
  quote: [
    'List item: RepoTags (array of string), Id (string), ParentId (string, omitted when none), Created (integer, Unix seconds), Size (integer), VirtualSize (integer), Labels (object, from 1.20)',
    'An image can be referenced by any RepoTags value or RepoDigests value.',
    '| GET /images/json |',
    '200 array of image list items',
  ],
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
  spec: '2 §2.1, §4.1',
  quote: [
    'RepoDigests (array of string, with digests=1; a digest reference has the form `<repository>@<algorithm>:<hex>`)',
    'digests (1 adds RepoDigests)',
  ],
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
  spec: '2 §2.1, 1 §2.3',
  quote: [
    'Inspect response: Created (timestamp), Container (string), ContainerConfig (object with Hostname, User, AttachStdin, AttachStdout, AttachStderr, Tty, OpenStdin, StdinOnce, Env, Cmd, Dns, Image, Labels, Volumes, VolumesFrom, WorkingDir), Id, Parent, Size; from 1.21 also RepoTags and RepoDigests.',
    'Size (integer)',
    'RepoTags (array of string)',
    '| Hostname | string |',
    '| User | string | user inside the container |',
    '| AttachStdin, AttachStdout, AttachStderr | boolean | attach to the stream |',
    '| Tty | boolean |',
    '| OpenStdin | boolean | open stdin |',
    '| StdinOnce | boolean |',
    '| Env | array of string | each in the form VAR=value |',
    '| Labels | object string to string | |',
    '| Cmd | string or array of string | command to run |',
    '| Image | string | image name |',
    '| Volumes | object |',
    '| WorkingDir | string | |',
    '| Dns, DnsOptions, DnsSearch | array of string |',
    '| VolumesFrom | array of string |',
  ],
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
  quote: [
    'ContainerConfig (object with Hostname, User, AttachStdin, AttachStdout, AttachStderr, Tty, OpenStdin, StdinOnce, Env, Cmd, Dns, Image, Labels, Volumes, VolumesFrom, WorkingDir)',
  ],
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
  quote: [
    'from 1.21 also RepoTags and RepoDigests',
    'An image can be referenced by any RepoTags value or RepoDigests value.',
  ],
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
  spec: '2 §2.1, §4.1',
  quote: [
    'History item: Id, Created (integer), CreatedBy (string); at 1.25 also Tags (array or null), Size (integer), Comment (string).',
    '| GET /images/{name}/history |',
    '200 array of history items | 200, 404, 500 |',
  ],
  since: '1.18',
  tags: ['schema'],
  covers: ['2:GET /images/{name}/history', '2:GET /images/{name}/history:status:200', '2:version-rule:1.25:image-history-tags-size-comment'],
}, async (context) => {
  const name = await taggedFixture(context);
  const res = await context.engine.get(`/images/${encodeURIComponent(name)}/history`);
  context.expect(res.status, 'status').toBe(200);
  assertMatchesSchema(res.json(), historySchema(context.version), `the history at ${context.version}`);
});
