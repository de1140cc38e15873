import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { layerToTar } from '../../../reference/engine/filesystem/layer-tar.ts';
import { Layer } from '../../../reference/engine/filesystem/layer.ts';
import { ConflictError, InvalidParameterError } from '../../../reference/engine/model/common/errors.ts';
import { EventBus, type EngineEvent } from '../../../reference/engine/model/events/event-bus.ts';
import { goJson, readImageDocument } from '../../../reference/engine/model/images/image-document.ts';
import { chainIds } from '../../../reference/engine/model/images/image-layer-digests.ts';
import type { ImageUser } from '../../../reference/engine/model/images/image-removal.ts';
import { ImageStore } from '../../../reference/engine/model/images/image-store.ts';
import { emptyImageConfig, type Image } from '../../../reference/engine/model/images/image.ts';

const START = new Date('2024-03-01T12:00:00.000Z');

function store() {
  let now = START.getTime();
  const bus = new EventBus();
  const events: EngineEvent[] = [];
  bus.subscribe((event) => events.push(event));
  return { images: new ImageStore({ clock: () => new Date((now += 1000)), events: bus }), events };
}

const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const file = (data: string) => ({ kind: 'file' as const, mode: 0o644, uid: 0, gid: 0, mtime: START, data: Buffer.from(data) });
const layerWith = (path: string, data: string) => new Layer([[path, file(data)]]);
const nobody: () => ImageUser[] = () => [];

async function child(images: ImageStore, parent: Image, tags: string[] = [], data = 'x') {
  return images.create({ parent, layer: layerWith('/app', data), config: { ...parent.config, Cmd: ['/app'] }, createdBy: '/bin/sh -c echo x > /app', tags });
}

describe('the seeded busybox', () => {
  test('its id is the digest of its config document, whose diff id is the digest of its layer tar', async () => {
    const busybox = store().images.find('busybox');
    expect(busybox.id).toBe(sha256(busybox.configDocument));
    const document = readImageDocument(busybox.configDocument);
    expect(document.diffIds).toEqual([sha256(await layerToTar(busybox.layers.layers[0] as Layer))]);
    expect(document.config.Cmd).toEqual(['sh']);
    expect(busybox.history.map((step) => step.emptyLayer)).toEqual([false, true]);
  });

  test('the document has dockerd key order: top level sorted, config in Go field order', () => {
    const text = store().images.find('busybox').configDocument.toString();
    expect(Object.keys(JSON.parse(text))).toEqual(['architecture', 'config', 'container_config', 'created', 'docker_version', 'history', 'os', 'rootfs']);
    expect(text).toContain('"config":{"Hostname":"","Domainname":"","User":"","AttachStdin":false');
    expect(text).toContain('"Labels":null');
  });

  test('is the same image in two stores', () => {
    expect(store().images.find('busybox').id).toBe(store().images.find('busybox').id);
  });
});

describe('create', () => {
  test('stacks the layer on the parent, appends a history step, records the parent and the size', async () => {
    const { images } = store();
    const busybox = images.find('busybox');
    const image = await child(images, busybox, ['app:1']);
    expect(image.parent).toBe(busybox.id);
    expect(image.layers.layers).toHaveLength(2);
    expect(image.diffIds).toEqual([busybox.diffIds[0], sha256(await layerToTar(layerWith('/app', 'x')))]);
    expect(image.size).toBe(busybox.size + 1);
    expect(image.history.at(-1)).toEqual({ created: new Date(START.getTime() + 1000), createdBy: '/bin/sh -c echo x > /app', comment: '', emptyLayer: false });
    expect(image.history).toHaveLength(3);
    expect(image.id).toBe(sha256(image.configDocument));
    expect(images.find('app:1')).toBe(image);
    expect(image.layers.view.lookup('/app')).toBeDefined();
  });

  test('without a layer the step is an empty_layer step on the same layers', async () => {
    const { images } = store();
    const busybox = images.find('busybox');
    const image = await images.create({ parent: busybox, config: { ...busybox.config, User: 'nobody' }, createdBy: 'USER nobody' });
    expect(image.diffIds).toEqual(busybox.diffIds);
    expect(image.history.at(-1)?.emptyLayer).toBe(true);
    expect(JSON.parse(image.configDocument.toString()).history.at(-1)).toMatchObject({ empty_layer: true, created_by: 'USER nobody' });
  });

  test('the same document twice is one image, with the tags of both', async () => {
    const { images } = store();
    const spec = { config: emptyImageConfig(), layer: layerWith('/a', 'a'), createdBy: '', created: START };
    const first = await images.create({ ...spec, tags: ['one'] });
    const second = await images.create({ ...spec, tags: ['two:x'] });
    expect(second).toBe(first);
    expect(first.repoTags).toEqual(['one:latest', 'two:x']);
    expect(images.count).toBe(2);
  });

  test('an image without parent has only its own layer and step', async () => {
    const { images } = store();
    const image = await images.create({ config: emptyImageConfig(), layer: layerWith('/a', 'a'), createdBy: '', comment: 'Imported from -' });
    expect(image.parent).toBe('');
    expect(image.diffIds).toHaveLength(1);
    expect(image.history).toEqual([{ created: expect.any(Date), createdBy: '', comment: 'Imported from -', emptyLayer: false }]);
    expect(JSON.parse(image.configDocument.toString())).toMatchObject({ comment: 'Imported from -', history: [{ comment: 'Imported from -' }] });
  });
});

describe('adopt', () => {
  test('keeps the document byte for byte, so the id survives a save and a load', async () => {
    const { images } = store();
    const original = await child(images, images.find('busybox'), ['app']);
    const other = store().images;
    const adopted = await other.adopt(original.configDocument, [...original.layers.layers], ['app:latest']);
    expect(adopted.id).toBe(original.id);
    expect(adopted.diffIds).toEqual(original.diffIds);
    expect(adopted.config).toEqual(original.config);
    expect(adopted.history).toEqual(original.history);
    expect(adopted.parent).toBe('');
    expect(other.find('app').id).toBe(original.id);
  });

  test('keeps a dockerd document as it is, spacing and all', async () => {
    const document = Buffer.from('{"architecture":"amd64","config":{"Cmd":null,"Env":null},"created":"2024-03-01T12:00:00.5Z","os":"linux","rootfs":{"type":"layers","diff_ids":["sha256:aa"]}} ');
    const image = await store().images.adopt(document, [layerWith('/a', 'a')], []);
    expect(image.id).toBe(sha256(document));
    expect(image.created).toEqual(new Date('2024-03-01T12:00:00.500Z'));
    expect(image.config.Env).toEqual([]);
  });

  test('refuses layers that do not match the diff ids', async () => {
    const { images } = store();
    await expect(images.adopt(images.find('busybox').configDocument, [], [])).rejects.toThrow(InvalidParameterError);
  });
});

describe('listedNames', () => {
  test('with a reference filter, only the names that match it, by whole name or repository; without one, all', () => {
    const { images } = store();
    const busybox = images.find('busybox');
    for (const name of ['app:1', 'app:2', 'tool:1']) images.tag(busybox, name);
    expect(images.listedNames(busybox, ['app']).repoTags).toEqual(['app:1', 'app:2']);
    expect(images.listedNames(busybox, ['app:2', 'tool:*']).repoTags).toEqual(['app:2', 'tool:1']);
    expect(images.listedNames(busybox, ['nothing']).repoTags).toEqual([]);
    expect(images.listedNames(busybox, undefined).repoTags).toEqual(['app:1', 'app:2', 'busybox:latest', 'tool:1']);
  });
});

describe('tag', () => {
  test('moves the name off the image that had it and publishes tag with the name as given', async () => {
    const { images, events } = store();
    const busybox = images.find('busybox');
    const image = await child(images, busybox);
    images.tag(image, 'busybox');
    expect(busybox.repoTags).toEqual([]);
    expect(image.repoTags).toEqual(['busybox:latest']);
    expect(events.at(-1)).toMatchObject({ type: 'image', action: 'tag', actorId: image.id, attributes: { name: 'busybox' } });
  });

  test('keeps names in the engine order: by full name, so library images before other hub repositories, registries last', () => {
    const { images } = store();
    const busybox = images.find('busybox');
    for (const name of ['zed/app:1', 'registry.test:5000/app', 'alpha:2']) images.tag(busybox, name);
    expect(busybox.repoTags).toEqual(['alpha:2', 'busybox:latest', 'zed/app:1', 'registry.test:5000/app:latest']);
  });

  test('refuses a malformed name', () => {
    const { images } = store();
    expect(() => images.tag(images.find('busybox'), 'Bad Name')).toThrow(InvalidParameterError);
  });
});

describe('remove', () => {
  test('a name of an image with several names only untags it', () => {
    const { images, events } = store();
    const busybox = images.find('busybox');
    images.tag(busybox, 'other:1');
    expect(images.remove('other:1', { force: false, noprune: false }, nobody)).toEqual([{ Untagged: 'other:1' }]);
    expect(busybox.repoTags).toEqual(['busybox:latest']);
    expect(events.at(-1)).toMatchObject({ action: 'untag', actorId: busybox.id, attributes: { name: busybox.id } });
  });

  test('the last name deletes the image and reports the layers it freed, top first', async () => {
    const { images, events } = store();
    const busybox = images.find('busybox');
    const image = await images.create({ config: emptyImageConfig(), layer: layerWith('/a', 'a'), createdBy: '', tags: ['solo'] });
    expect(images.remove('solo', { force: false, noprune: false }, nobody)).toEqual([{ Untagged: 'solo:latest' }, { Deleted: image.id }, { Deleted: image.diffIds[0] }]);
    expect(() => images.find(image.id)).toThrow();
    expect(events.slice(-2).map((event) => [event.action, event.attributes])).toEqual([
      ['untag', { name: image.id }],
      ['delete', { name: image.id }],
    ]);
    expect(images.find('busybox')).toBe(busybox);
  });

  test('a child shares its parent layers: deleting it frees its own only, and prunes an untagged parent', async () => {
    const { images } = store();
    const busybox = images.find('busybox');
    const middle = await child(images, busybox, [], 'm');
    const top = await child(images, middle, ['top'], 't');
    const [, , ownChain] = chainIds(top.diffIds);
    const [, middleChain] = chainIds(middle.diffIds);
    expect(images.remove('top', { force: false, noprune: false }, nobody)).toEqual([
      { Untagged: 'top:latest' },
      { Deleted: top.id },
      { Deleted: ownChain },
      { Deleted: middle.id },
      { Deleted: middleChain },
    ]);
    expect(images.count).toBe(1);
  });

  test('noprune keeps the untagged parent', async () => {
    const { images } = store();
    const middle = await child(images, images.find('busybox'), [], 'm');
    await child(images, middle, ['top'], 't');
    images.remove('top', { force: false, noprune: true }, nobody);
    expect(images.find(middle.id)).toBe(middle);
  });

  test('an image with children cannot be deleted, even forced', async () => {
    const { images } = store();
    const busybox = images.find('busybox');
    await child(images, busybox);
    const short = busybox.id.slice(7, 19);
    expect(() => images.remove(busybox.id, { force: true, noprune: false }, nobody)).toThrow(
      new ConflictError(`conflict: unable to delete ${short} (cannot be forced) - image has dependent child images`),
    );
  });

  test('by id: names in several repositories need force, then all go before the image', () => {
    const { images } = store();
    const busybox = images.find('busybox');
    images.tag(busybox, 'other');
    const short = busybox.id.slice(7, 19);
    expect(() => images.remove(short, { force: false, noprune: false }, nobody)).toThrow(
      new ConflictError(`conflict: unable to delete ${short} (must be forced) - image is referenced in multiple repositories`),
    );
    expect(images.remove(short, { force: true, noprune: false }, nobody)).toEqual([
      { Untagged: 'busybox:latest' },
      { Untagged: 'other:latest' },
      { Deleted: busybox.id },
      { Deleted: busybox.diffIds[0] },
    ]);
  });

  test('the only name of an image a container uses must be forced; forced, the image goes but its layers stay', () => {
    const { images } = store();
    const busybox = images.find('busybox');
    const users = () => [{ id: 'c'.repeat(64), running: false }];
    expect(() => images.remove('busybox', { force: false, noprune: false }, users)).toThrow(
      new ConflictError(`conflict: unable to remove repository reference "busybox" (must force) - container cccccccccccc is using its referenced image ${busybox.id.slice(7, 19)}`),
    );
    expect(images.remove('busybox', { force: true, noprune: false }, users)).toEqual([{ Untagged: 'busybox:latest' }, { Deleted: busybox.id }]);
    expect(images.count).toBe(0);
  });

  test('by id: a stopped container needs force (and keeps the layers), a running one refuses even force', () => {
    const { images } = store();
    const busybox = images.find('busybox');
    const short = busybox.id.slice(7, 19);
    const running = () => [{ id: 'r'.repeat(64), running: true }];
    expect(() => images.remove(busybox.id, { force: true, noprune: false }, running)).toThrow(
      new ConflictError(`conflict: unable to delete ${short} (cannot be forced) - image is being used by running container rrrrrrrrrrrr`),
    );
    const stopped = () => [{ id: 's'.repeat(64), running: false }];
    expect(() => images.remove(busybox.id, { force: false, noprune: false }, stopped)).toThrow(
      new ConflictError(`conflict: unable to delete ${short} (must be forced) - image is being used by stopped container ssssssssssss`),
    );
    expect(images.remove(busybox.id, { force: true, noprune: false }, stopped)).toEqual([{ Untagged: 'busybox:latest' }, { Deleted: busybox.id }]);
  });
});

test('goJson escapes what Go escapes', () => {
  expect(goJson({ Cmd: ['a && b < c > d\u2028'] })).toBe('{"Cmd":["a \\u0026\\u0026 b \\u003c c \\u003e d\\u2028"]}');
});
