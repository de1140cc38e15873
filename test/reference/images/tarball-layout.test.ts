/**
 * What a save writes, member by member (spec/2 §2.2, and dockerd 20.10's layout): a directory per
 * layer named by its v1 id with VERSION, json and layer.tar; the config document; manifest.json;
 * repositories only when a name with a tag was saved.
 */
import { describe, expect, test } from 'vitest';
import { layerToTar } from '../../../reference/engine/filesystem/layer-tar.ts';
import { NotFoundError } from '../../../reference/engine/model/common/errors.ts';
import { saveImages } from '../../../reference/engine/model/images/image-tarball-save.ts';
import { imageStore, jsonOf, sha256, stacked, tarballMembers } from './tarball-images.ts';

const hex = (id: string) => id.replace(/^sha256:/, '');

interface Manifest {
  Config: string;
  RepoTags: string[] | null;
  Layers: string[];
  Parent?: string;
}

async function twoImages() {
  const { images, events } = imageStore();
  const busybox = images.find('busybox');
  const app = await stacked(images, busybox, { '/app/main': 'v1' }, ['app:1']);
  return { images, events, busybox, app };
}

describe('a save of one name with a tag', () => {
  test('has a directory per layer, bottom first in the manifest, each with VERSION 1.0, json and layer.tar', async () => {
    const { images, app } = await twoImages();
    const members = await tarballMembers(await saveImages(images, ['app:1']));
    const [manifest] = jsonOf<Manifest[]>(members.get('manifest.json'));
    expect(manifest?.Layers).toHaveLength(2);
    for (const [index, layerPath] of (manifest?.Layers ?? []).entries()) {
      const directory = layerPath.replace(/\/layer\.tar$/, '');
      expect(directory).toMatch(/^[0-9a-f]{64}$/);
      expect(members.get(directory)?.header.type).toBe('directory');
      expect(members.get(`${directory}/VERSION`)?.data.toString()).toBe('1.0');
      expect(jsonOf(members.get(`${directory}/json`)).id).toBe(directory);
      const layer = app.layers.layers[index];
      expect(layer).toBeDefined();
      if (layer) expect(members.get(layerPath)?.data.equals(await layerToTar(layer))).toBe(true);
    }
  });

  test('each layer json names the one below as its parent; the top one carries the image config', async () => {
    const { images, app } = await twoImages();
    const members = await tarballMembers(await saveImages(images, ['app:1']));
    const [bottom, top] = (jsonOf<Manifest[]>(members.get('manifest.json'))[0]?.Layers ?? []).map((path) => jsonOf(members.get(path.replace('layer.tar', 'json'))));
    expect(bottom?.parent).toBeUndefined();
    expect(bottom?.created).toBe('1970-01-01T00:00:00Z');
    expect(top?.parent).toBe(bottom?.id);
    expect((top?.config as { Cmd: unknown }).Cmd).toEqual(app.config.Cmd);
  });

  test('holds the config document byte for byte under the id, so the id is its digest', async () => {
    const { images, app } = await twoImages();
    const members = await tarballMembers(await saveImages(images, ['app:1']));
    const config = members.get(`${hex(app.id)}.json`);
    expect(config?.data.equals(app.configDocument)).toBe(true);
    expect(sha256(config?.data ?? Buffer.alloc(0))).toBe(app.id);
    expect(jsonOf<Manifest[]>(members.get('manifest.json'))[0]?.Config).toBe(`${hex(app.id)}.json`);
  });

  test('has repositories mapping the repository and tag to the top layer, and the tag in the manifest', async () => {
    const { images } = await twoImages();
    const members = await tarballMembers(await saveImages(images, ['app:1']));
    const [manifest] = jsonOf<Manifest[]>(members.get('manifest.json'));
    expect(manifest?.RepoTags).toEqual(['app:1']);
    const top = manifest?.Layers.at(-1)?.replace('/layer.tar', '');
    expect(jsonOf(members.get('repositories'))).toEqual({ app: { '1': top } });
  });

  test('lists its members as dockerd walks its directory: by name, each directory before its files, owned by root', async () => {
    const { images, app } = await twoImages();
    const members = await tarballMembers(await saveImages(images, ['app:1']));
    const directories = [...members.keys()].filter((name) => /^[0-9a-f]{64}$/.test(name));
    const topLevel = [...directories, `${hex(app.id)}.json`, 'manifest.json', 'repositories'].sort();
    const walk = topLevel.flatMap((name) => (directories.includes(name) ? [name, `${name}/VERSION`, `${name}/json`, `${name}/layer.tar`] : [name]));
    expect(directories).toHaveLength(2);
    expect([...members.keys()]).toEqual(walk);
    for (const { header } of members.values()) expect([header.uid, header.gid, header.uname]).toEqual([0, 0, 'root']);
  });
});

describe('a save by id', () => {
  test('has no repositories file and no tags, but the same layers', async () => {
    const { images, app } = await twoImages();
    for (const name of [app.id, hex(app.id), hex(app.id).slice(0, 12)]) {
      const members = await tarballMembers(await saveImages(images, [name]));
      expect(members.has('repositories')).toBe(false);
      const [manifest] = jsonOf<Manifest[]>(members.get('manifest.json'));
      expect(manifest?.RepoTags).toBeNull();
      expect(manifest?.Layers).toHaveLength(2);
    }
  });
});

describe('a save of several names', () => {
  test('saves each image once, a shared layer once (a symlink from the second directory), and links the parent', async () => {
    const { images, busybox, app } = await twoImages();
    const members = await tarballMembers(await saveImages(images, ['busybox:latest', 'app:1', 'app:1', hex(app.id)]));
    const manifest = jsonOf<Manifest[]>(members.get('manifest.json'));
    expect(manifest.map((item) => item.Config)).toEqual([`${hex(busybox.id)}.json`, `${hex(app.id)}.json`]);
    expect(manifest[1]?.Parent).toBe(busybox.id);
    expect(manifest[0]?.Parent).toBeUndefined();
    const shared = manifest[1]?.Layers[0] ?? '';
    const alone = manifest[0]?.Layers[0] ?? '';
    // busybox's only layer has one v1 id as busybox's top and another as app's bottom layer
    expect(shared).not.toBe(alone);
    expect(members.get(shared)?.header.type).toBe('symlink');
    expect(members.get(shared)?.header.linkname).toBe(`../${alone}`);
    expect(jsonOf(members.get('repositories'))).toEqual({ app: { '1': expect.any(String) }, busybox: { latest: expect.any(String) } });
  });

  test('a repository name alone saves every tag of it', async () => {
    const { images, busybox } = await twoImages();
    const other = await stacked(images, busybox, { '/other': 'x' }, ['app:2']);
    images.tag(other, 'app:3');
    const manifest = jsonOf<Manifest[]>((await tarballMembers(await saveImages(images, ['app']))).get('manifest.json'));
    expect(manifest.map((item) => item.RepoTags)).toEqual([['app:1'], ['app:2', 'app:3']]);
  });

  test('no name at all gives a manifest of null and nothing else', async () => {
    const { images } = await twoImages();
    const members = await tarballMembers(await saveImages(images, []));
    expect([...members.keys()]).toEqual(['manifest.json']);
    expect(members.get('manifest.json')?.data.toString()).toBe('null\n');
  });
});

describe('names that pick nothing', () => {
  test('a missing tag is "reference does not exist", a missing name or prefix "No such image", both not found', async () => {
    const { images } = await twoImages();
    await expect(saveImages(images, ['app:9'])).rejects.toThrow(new NotFoundError('reference does not exist'));
    await expect(saveImages(images, ['nosuch'])).rejects.toThrow(new NotFoundError('No such image: nosuch'));
    await expect(saveImages(images, ['app:1', 'nosuch'])).rejects.toBeInstanceOf(NotFoundError);
  });

  test('a malformed name is refused, not found is not the reason', async () => {
    const { images } = await twoImages();
    const refusal = saveImages(images, ['UPPER']);
    await expect(refusal).rejects.toThrow(/invalid reference format/);
    await expect(refusal).rejects.not.toBeInstanceOf(NotFoundError);
  });
});

describe('events', () => {
  test('a save publishes `save` for each image, named by its id', async () => {
    const { images, events, busybox, app } = await twoImages();
    events.length = 0;
    await saveImages(images, ['busybox', 'app:1']);
    expect(events.map(({ type, action, actorId, attributes }) => [type, action, actorId, attributes.name])).toEqual([
      ['image', 'save', busybox.id, busybox.id],
      ['image', 'save', app.id, app.id],
    ]);
  });
});
