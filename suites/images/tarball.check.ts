/**
 * Image tarballs (spec/2 §2.2, §4.1 get and load): one directory per layer named by its long id with
 * VERSION `1.0`, json and layer.tar; a `repositories` file when saved by name with a tag, none when
 * saved by id; several images at once with `names`; load takes back what save wrote, reports a
 * malformed tarball inside its stream and then has changed nothing. Read file by file with tar-stream.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { PROGRESS_MESSAGE_SCHEMA } from '../../harness/schemas/image-schemas.ts';
import {
  committedImage,
  imageStatus,
  inspectImage,
  loadTarball,
  removeImage,
  savedTarball,
  splitImageName,
  streamError,
  streamMessages,
  uniqueImageName,
} from '../image-steps.ts';
import { relativeName, tarEntries, type TarEntry } from '../tar-files.ts';

/** A layer directory's name as dockerd writes it: the layer's long id, 64 hex digits (spec/2 §2.2 gives no form of ids). */
const HEX_LAYER_ID = /^[0-9a-f]{64}$/;

interface LayerDirectory {
  id: string;
  files: Map<string, TarEntry>;
}

/** The tarball's entries by path, and its layer directories (every directory at its root, spec/2 §2.2) with their files. */
async function tarball(bytes: Buffer, what: string): Promise<{ paths: Map<string, TarEntry>; layers: LayerDirectory[] }> {
  const paths = new Map((await tarEntries(bytes, what)).map((entry) => [relativeName(entry.name), entry]));
  const layers = new Map<string, LayerDirectory>();
  for (const [path, entry] of paths) {
    const [top, file, ...deeper] = path.split('/');
    if (top === undefined || top === '' || file === undefined || file === '' || deeper.length > 0) continue;
    const layer = layers.get(top) ?? { id: top, files: new Map<string, TarEntry>() };
    layer.files.set(file, entry);
    layers.set(top, layer);
  }
  return { paths, layers: [...layers.values()] };
}

/** A named image of the check's own that has a file of its own on top of the fixture image; its id as inspect gives it. */
async function imageWithFile(context: CheckContext, hint = 'saved'): Promise<{ id: string; name: string }> {
  const name = uniqueImageName(context, hint);
  await committedImage(context, { cmd: ['sh', '-c', 'echo saved > /saved.txt'], name });
  return { id: (await inspectImage(context, name)).Id, name };
}

/** The `repositories` file of a tarball, parsed. */
function repositoriesOf(paths: Map<string, TarEntry>): Record<string, Record<string, string>> | undefined {
  const entry = paths.get('repositories');
  return entry ? (JSON.parse(entry.data.toString('utf8')) as Record<string, Record<string, string>>) : undefined;
}

check('images.get.layout', {
  title: 'GET /images/{name}/get answers application/x-tar with a directory per layer, each holding VERSION 1.0, json and layer.tar',
  spec: '2 §2.2, §4.1',
  quote: [
    'A tarball holds one directory per image layer named by its long id, each with: VERSION (currently 1.0, the file format version), json (layer information), layer.tar (filesystem changes of the layer, using aufs-style whiteout files for attribute changes and deletions).',
    '| GET /images/{name}/get |',
    '200 `application/x-tar`; a name with tag returns that image and its parents',
  ],
  since: '1.18',
  tags: ['schema'],
  covers: ['2:GET /images/{name}/get', '2:GET /images/{name}/get:status:200'],
}, async (context) => {
  const { engine, expect } = context;
  const { name } = await imageWithFile(context);
  const res = await engine.get(`/images/${encodeURIComponent(name)}/get`);
  expect(res.status, 'status').toBe(200);
  expect(res.contentType, 'Content-Type').toMatch(/^application\/x-tar\b/);
  const { layers } = await tarball(res.body, `the tarball of ${name}`);
  expect(layers.length, 'layer directories (the fixture layer and the committed one at least)').toBeGreaterThanOrEqual(2);
  for (const layer of layers) {
    const files = [...layer.files.keys()].filter((file) => ['VERSION', 'json', 'layer.tar'].includes(file)).sort();
    expect(files, `files of layer directory ${layer.id}`).toEqual(['VERSION', 'json', 'layer.tar']);
    expect(layer.files.get('VERSION')?.data.toString('utf8').trim(), `${layer.id}/VERSION`).toBe('1.0');
    const json: unknown = JSON.parse(layer.files.get('json')?.data.toString('utf8') ?? 'null');
    expect(typeof json === 'object' && json !== null && !Array.isArray(json), `${layer.id}/json is a JSON object`).toBe(true);
    await tarEntries(layer.files.get('layer.tar')?.data ?? Buffer.alloc(0), `${layer.id}/layer.tar`);
  }
});

check('images.get.layer-directory-names', {
  title: 'the layer directories of a saved image are named by 64 lower-case hex digits (as dockerd)',
  spec: '2 §2.2',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['schema'],
}, async (context) => {
  const { name } = await imageWithFile(context);
  const { layers } = await tarball(await savedTarball(context, name), `the tarball of ${name}`);
  context.expect(layers.length, 'layer directories').toBeGreaterThanOrEqual(2);
  context.expect(layers.map((layer) => layer.id).filter((id) => !HEX_LAYER_ID.test(id)), 'layer directories not named by 64 hex digits').toEqual([]);
});

check('images.get.parents', {
  title: 'the tarball of an image holds the layers of its parents too: the fixture layer with bin/busybox and the committed layer with the written file',
  spec: '2 §4.1, §2.2',
  quote: [
    '| GET /images/{name}/get |',
    '200 `application/x-tar`; a name with tag returns that image and its parents',
    'A tarball holds one directory per image layer named by its long id, each with: VERSION (currently 1.0, the file format version), json (layer information), layer.tar (filesystem changes of the layer, using aufs-style whiteout files for attribute changes and deletions).',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /images/{name}/get'],
}, async (context) => {
  const { name } = await imageWithFile(context);
  const { layers } = await tarball(await savedTarball(context, name), `the tarball of ${name}`);
  const holding = async (path: string) => {
    const found: string[] = [];
    for (const layer of layers) {
      const entries = await tarEntries(layer.files.get('layer.tar')?.data ?? Buffer.alloc(0), `${layer.id}/layer.tar`);
      if (entries.some((entry) => relativeName(entry.name) === path)) found.push(layer.id);
    }
    return found.length;
  };
  const seen = { busybox: await holding('bin/busybox'), saved: await holding('saved.txt') };
  context.expect(seen, 'how many layers hold bin/busybox and saved.txt').toEqual({ busybox: 1, saved: 1 });
});

check('images.get.repositories', {
  title: 'saved by name with a tag, the tarball has a repositories file mapping the repository and tag to one of its layer directories',
  spec: '2 §2.2, §4.1',
  quote: [
    'If the tarball defines a repository it also holds a `repositories` file at the root mapping repository names to a map of tag to layer id.',
    '| GET /images/{name}/get |',
    '200 `application/x-tar`; a name with tag returns that image and its parents',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /images/{name}/get'],
}, async (context) => {
  const { name } = await imageWithFile(context);
  const { paths, layers } = await tarball(await savedTarball(context, name), `the tarball of ${name}`);
  const repositories = repositoriesOf(paths);
  const { repo, tag } = splitImageName(name);
  const layerId = repositories?.[repo]?.[tag];
  context.expect(repositories, 'the repositories file').toEqual({ [repo]: { [tag]: layerId } });
  context.expect(layers.map((layer) => layer.id), `layer directories, for ${repo}:${tag} → ${layerId}`).toContain(layerId);
});

check('images.get.by-id', {
  title: 'saved by id, the tarball holds the image and its parents and no repositories file',
  spec: '2 §4.1, §2.2',
  quote: [
    '| GET /images/{name}/get |',
    'an image id returns that image and parents without a `repositories` file',
    'A tarball holds one directory per image layer named by its long id, each with: VERSION (currently 1.0, the file format version), json (layer information), layer.tar (filesystem changes of the layer, using aufs-style whiteout files for attribute changes and deletions).',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /images/{name}/get'],
}, async (context) => {
  const { id } = await imageWithFile(context);
  const { paths, layers } = await tarball(await savedTarball(context, id), `the tarball of ${id}`);
  context.expect({ repositories: paths.has('repositories'), layers: layers.length >= 2 }, 'a repositories file, and the layer directories (two at least)').toEqual({ repositories: false, layers: true });
});

check('images.get.several', {
  title: 'GET /images/get with names repeated answers one tarball whose repositories file names each image',
  spec: '2 §4.1, §2.2',
  quote: [
    '| GET /images/get |',
    'names (repeatable, name or id)',
    '200 `application/x-tar` | 200, 500 |',
    'If the tarball defines a repository it also holds a `repositories` file at the root mapping repository names to a map of tag to layer id.',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['2:GET /images/get', '2:GET /images/get:query:names', '2:GET /images/get:status:200'],
}, async (context) => {
  const [first, second] = [await imageWithFile(context, 'one'), await imageWithFile(context, 'two')];
  const res = await context.engine.get('/images/get', { query: { names: [first.name, second.name] } });
  context.expect(res.status, 'status').toBe(200);
  const { paths } = await tarball(res.body, 'the tarball of both images');
  const repositories = repositoriesOf(paths) ?? {};
  context.expect(Object.keys(repositories).sort(), 'repositories in the tarball').toEqual([splitImageName(first.name).repo, splitImageName(second.name).repo].sort());
});

/** Saves a named image of the check's own, then deletes it: its tarball, name and id. */
async function savedThenDeleted(context: CheckContext): Promise<{ bytes: Buffer; id: string; name: string }> {
  const { id, name } = await imageWithFile(context);
  const bytes = await savedTarball(context, name);
  const res = await removeImage(context, name);
  context.expect(res.status, `DELETE /images/${name} status`).toBe(200);
  context.expect(await imageStatus(context, id), 'GET /images/{id}/json status after the delete').toBe(404);
  return { bytes, id, name };
}

check('images.load.round-trip', {
  title: 'save, delete, then POST /images/load brings the image back with the same id and name',
  spec: '2 §4.1, §2.2',
  quote: [
    '| POST /images/load |',
    'quiet (boolean, default false); Content-Type `application/x-tar`',
    '| tarball |',
    '200 JSON stream of progress objects {status, progressDetail {current, total}, progress, id} and a final {stream}',
    'If the tarball defines a repository it also holds a `repositories` file at the root mapping repository names to a map of tag to layer id.',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['2:POST /images/load', '2:POST /images/load:body:tarball', '2:POST /images/load:header:Content-Type'],
}, async (context) => {
  const { bytes, id, name } = await savedThenDeleted(context);
  const res = await loadTarball(context, bytes);
  context.expect(res.status, 'status').toBe(200);
  context.expect(streamError(streamMessages(res)), 'an error in the load stream').toBeUndefined();
  context.expect((await inspectImage(context, name)).Id, `the id ${name} names after the load`).toBe(id);
});

check('images.load.stream', {
  title: 'POST /images/load answers 200 with a JSON stream of progress objects ending with a {stream} confirmation',
  spec: '2 §4.1',
  quote: [
    '| POST /images/load |',
    'quiet (boolean, default false); Content-Type `application/x-tar`',
    '200 JSON stream of progress objects {status, progressDetail {current, total}, progress, id} and a final {stream}',
  ],
  since: '1.18',
  tags: ['stream', 'schema'],
  covers: ['2:POST /images/load', '2:POST /images/load:status:200', '2:POST /images/load:body:tarball'],
}, async (context) => {
  const { bytes } = await savedThenDeleted(context);
  const res = await loadTarball(context, bytes);
  context.expect(res.status, 'status').toBe(200);
  const messages = streamMessages(res);
  messages.forEach((message, index) => assertMatchesSchema(message, PROGRESS_MESSAGE_SCHEMA, `object ${index} of the load stream`));
  context.expect(messages.at(-1) !== undefined && 'stream' in (messages.at(-1) ?? {}), `the last object of ${JSON.stringify(messages)} is a {stream}`).toBe(true);
});

check('images.load.quiet', {
  title: 'POST /images/load?quiet=1 answers only the confirmation: {stream} objects, no progress',
  spec: '2 §4.1, 1 §1',
  quote: [
    'Clients must tolerate new properties in responses',
    '| POST /images/load |',
    'quiet (boolean, default false); Content-Type `application/x-tar`',
    '200 JSON stream of progress objects {status, progressDetail {current, total}, progress, id} and a final {stream}',
    'with quiet only the confirmation message is returned | 200, 500 |',
  ],
  since: '1.18',
  tags: ['stream'],
  covers: ['2:POST /images/load:query:quiet'],
}, async (context) => {
  const { bytes } = await savedThenDeleted(context);
  const res = await loadTarball(context, bytes, { quiet: 1 });
  context.expect(res.status, 'status').toBe(200);
  const messages = streamMessages(res);
  context.expect(messages.length, 'objects in the stream').toBeGreaterThan(0);
  // Only the confirmation: {stream} objects, none of the progress fields (other properties a client must tolerate, spec/1 §1).
  const progress = ['status', 'progress', 'progressDetail'];
  context.expect(messages.filter((message) => !('stream' in message) || progress.some((key) => key in message)), `objects of ${JSON.stringify(messages)} that are not a bare confirmation`).toEqual([]);
});

check('images.load.malformed', {
  title: 'loading a tarball that is not one, or one cut short, answers an error (500, or 200 with {error} in the stream) and loads nothing',
  spec: '2 §4.1',
  quote: [
    '| POST /images/load |',
    '| tarball |',
    '200 JSON stream of progress objects {status, progressDetail {current, total}, progress, id} and a final {stream}',
    'with quiet only the confirmation message is returned | 200, 500 |',
  ],
  since: '1.18',
  tags: ['error'],
  covers: ['2:POST /images/load', '2:POST /images/load:body:tarball'],
}, async (context) => {
  const { expect } = context;
  const { bytes, id, name } = await savedThenDeleted(context);
  for (const [what, body] of [['not a tar', Buffer.from('this is not a tarball\n')], ['cut short', bytes.subarray(0, Math.floor(bytes.length / 2))]] as const) {
    const res = await loadTarball(context, body);
    const failed = res.status === 500 || (res.status === 200 && typeof streamError(streamMessages(res))?.error === 'string');
    expect(failed, `the answer is an error (${what}): ${res.describe()}`).toBe(true);
  }
  expect({ name: await imageStatus(context, name), id: await imageStatus(context, id) }, 'GET /images/{name}/json statuses after').toEqual({ name: 404, id: 404 });
});
