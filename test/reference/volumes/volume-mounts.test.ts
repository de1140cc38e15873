/**
 * Volumes mounted in the layered filesystem: what is written under a mount point lives in the
 * volume's tree (so another filesystem mounting it sees it), never in the container's layers
 * (changes, export, commit, sizes); read-only mounts, busy mount points, the mount points made at
 * start, and an empty volume filled from the image.
 */
import { describe, expect, test } from 'vitest';
import { ImageLayerStack } from '../../../reference/engine/filesystem/image-layer-stack.ts';
import type { LayerEntry } from '../../../reference/engine/filesystem/layer-entry.ts';
import { LayerIndex } from '../../../reference/engine/filesystem/layer-index.ts';
import { LayeredFilesystem } from '../../../reference/engine/filesystem/layered-filesystem.ts';
import { Layer } from '../../../reference/engine/filesystem/layer.ts';
import { codeOf } from '../filesystem/error-codes.ts';

const at = (seconds: number) => new Date(Date.UTC(2020, 0, 1) + seconds * 1000);
const dir = (mode = 0o755): LayerEntry => ({ kind: 'directory', mode, uid: 0, gid: 0, mtime: at(0), opaque: false });
const file = (data: string): LayerEntry => ({ kind: 'file', mode: 0o644, uid: 0, gid: 0, mtime: at(0), data: Buffer.from(data) });

/** /etc/conf in the image, and /srv with a file, as an image's VOLUME directory would hold */
const image = new ImageLayerStack([new Layer([['/etc', dir()], ['/etc/conf', file('image')], ['/srv', dir(0o700)], ['/srv/seed', file('seed')]])]);

function volumeTree(): LayerIndex {
  const tree = new LayerIndex();
  tree.set('/', dir());
  return tree;
}

function mounted(tree: LayerIndex, destination = '/data', readOnly = false): LayeredFilesystem {
  let tick = 0;
  const fs = new LayeredFilesystem(image, { clock: () => at(++tick), volumes: [{ destination, tree, readOnly }] });
  fs.createMountPoints();
  return fs;
}

describe('a volume mounted in a container filesystem', () => {
  test('a file written under the mount point is in the volume, and another filesystem mounting it elsewhere reads it', () => {
    const tree = volumeTree();
    mounted(tree).writeFile('/data/note', 'hello');
    expect(tree.get('/note')?.kind).toBe('file');
    const other = mounted(tree, '/mnt/other');
    expect(other.readFile('/mnt/other/note').toString()).toBe('hello');
    expect(other.list('/mnt/other')).toEqual(['note']);
  });

  test("what lies under the mount point is not part of the container's layers: changes show the mount point only, export and sizes leave the volume out", async () => {
    const fs = mounted(volumeTree());
    fs.mkdir('/data/sub');
    fs.writeFile('/data/sub/big', 'x'.repeat(1000));
    expect(fs.changes()).toEqual([{ Path: '/data', Kind: 1 }]);
    expect(fs.size().rw).toBe(0);
    expect((await fs.exportTar()).includes(Buffer.from('sub/big'))).toBe(false);
    expect(fs.commitLayer().get('/data/sub')).toBeUndefined();
  });

  test('the mount points, and their missing parents, are made in the rootfs as the container starts', () => {
    const fs = new LayeredFilesystem(image, { volumes: [{ destination: '/a/b', tree: volumeTree(), readOnly: false }] });
    expect(fs.stat('/a')).toBeUndefined();
    fs.createMountPoints();
    expect(fs.changes()).toEqual([{ Path: '/a', Kind: 1 }, { Path: '/a/b', Kind: 1 }]);
  });

  test('a read-only mount refuses changes with EROFS; a read-only rootfs does not make a writable volume read-only', () => {
    const readOnly = mounted(volumeTree(), '/data', true);
    expect(codeOf(() => readOnly.writeFile('/data/x', 'x'))).toBe('EROFS');
    const tree = volumeTree();
    const rootfsReadOnly = new LayeredFilesystem(image, { readOnly: true, volumes: [{ destination: '/data', tree, readOnly: false }] });
    rootfsReadOnly.createMountPoints();
    rootfsReadOnly.writeFile('/data/x', 'x');
    expect(codeOf(() => rootfsReadOnly.writeFile('/x', 'x'))).toBe('EROFS');
    expect(tree.get('/x')?.kind).toBe('file');
  });

  test('the mount point itself cannot be removed (EBUSY); what is in it can', () => {
    const tree = volumeTree();
    const fs = mounted(tree);
    fs.writeFile('/data/x', 'x');
    expect(() => fs.remove('/data', { recursive: true })).toThrow(/EBUSY/);
    fs.remove('/data/x');
    expect(tree.hasChildren('/')).toBe(false);
  });

  test('an empty volume takes what the image holds at its mount point, its directory mode too; one with files keeps them', () => {
    const tree = volumeTree();
    const fs = new LayeredFilesystem(image, { volumes: [{ destination: '/srv', tree, readOnly: false }] });
    fs.populateVolume('/srv');
    expect(fs.readFile('/srv/seed').toString()).toBe('seed');
    expect(tree.get('/')).toMatchObject({ kind: 'directory', mode: 0o700 });
    const kept = volumeTree();
    kept.set('/own', file('own'));
    const other = new LayeredFilesystem(image, { volumes: [{ destination: '/srv', tree: kept, readOnly: false }] });
    other.populateVolume('/srv');
    expect(other.list('/srv')).toEqual(['own']);
  });

  test('a volume mounted over an image directory hides what the image holds there', () => {
    const fs = mounted(volumeTree(), '/etc');
    expect(fs.list('/etc')).toEqual([]);
    expect(fs.stat('/etc/conf')).toBeUndefined();
  });
});
