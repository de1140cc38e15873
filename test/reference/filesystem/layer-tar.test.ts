/**
 * Layers in and out of `layer.tar`: aufs whiteouts and opaque markers read and written, the round
 * trip, deterministic bytes, and the synthetic busybox layer against the fixture tar.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { buildBusyboxRootfs, ROOTFS_MTIME } from '../../../fixtures/busybox-rootfs.ts';
import { busyboxRootfsLayer } from '../../../reference/engine/filesystem/busybox-layer.ts';
import { ImageLayerStack } from '../../../reference/engine/filesystem/image-layer-stack.ts';
import type { LayerEntry } from '../../../reference/engine/filesystem/layer-entry.ts';
import { layerFromTar, layerToTar } from '../../../reference/engine/filesystem/layer-tar.ts';
import { Layer } from '../../../reference/engine/filesystem/layer.ts';
import { LayeredFilesystem } from '../../../reference/engine/filesystem/layered-filesystem.ts';
import { membersOf, tarOf as baseTarOf, type Member } from './member-tars.ts';

const tarOf = (members: Member[]) => baseTarOf(members, { mtime: new Date(Date.UTC(2016, 0, 1)) });

async function memberNames(archive: Buffer): Promise<string[]> {
  return (await membersOf(archive)).map(({ type, name }) => `${type} ${name}`);
}

const at = (seconds: number) => new Date(seconds * 1000);
const dir = (mode = 0o755, opaque = false): LayerEntry => ({ kind: 'directory', mode, uid: 0, gid: 0, mtime: at(1_000), opaque });
const file = (data: string, mode = 0o644): LayerEntry => ({ kind: 'file', mode, uid: 1000, gid: 100, mtime: at(2_000), data: Buffer.from(data) });
const link = (target: string): LayerEntry => ({ kind: 'symlink', mode: 0o777, uid: 0, gid: 0, mtime: at(3_000), target });
const whiteout: LayerEntry = { kind: 'whiteout' };

describe('reading a layer tar', () => {
  test('.wh.<name> deletes the name, .wh..wh..opq makes its directory opaque, other aufs files are skipped', async () => {
    const layer = await layerFromTar(
      await tarOf([
        { name: 'etc/', type: 'directory', mode: 0o755 },
        { name: 'etc/.wh.group' },
        { name: 'var/', type: 'directory', mode: 0o700 },
        { name: 'var/.wh..wh..opq' },
        { name: 'var/new', data: 'n' },
        { name: '.wh..wh.plnk/', type: 'directory' },
        { name: '.wh..wh.aufs' },
      ]),
    );
    expect(layer.get('/etc/group')).toEqual({ kind: 'whiteout' });
    expect(layer.get('/etc')).toMatchObject({ kind: 'directory', opaque: false });
    expect(layer.get('/var')).toMatchObject({ kind: 'directory', mode: 0o700, opaque: true });
    expect(layer.get('/var/.wh..wh..opq')).toBeUndefined();
    expect(layer.childNames('/')).toEqual(['etc', 'var']);
  });

  test('an opaque marker before its directory, or without one, still makes the directory opaque', async () => {
    const layer = await layerFromTar(await tarOf([{ name: 'a/.wh..wh..opq' }, { name: 'a/', type: 'directory', mode: 0o711 }, { name: 'b/.wh..wh..opq' }]));
    expect(layer.get('/a')).toMatchObject({ kind: 'directory', mode: 0o711, opaque: true });
    expect(layer.get('/b')).toMatchObject({ kind: 'directory', opaque: true });
  });

  test('keeps modes with their special bits, owners, mtimes, symlink targets; a hard link is a copy; a FIFO is skipped', async () => {
    const layer = await layerFromTar(
      await tarOf([
        { name: './tmp/', type: 'directory', mode: 0o1777 },
        { name: 'usr/bin/su', data: 'su', mode: 0o4755 },
        { name: 'usr/bin/sudo', type: 'link', linkname: 'usr/bin/su' },
        { name: 'usr/bin/sh', type: 'symlink', linkname: '../../bin/busybox' },
        { name: 'run/fifo', type: 'fifo' },
      ]),
    );
    expect(layer.get('/tmp')).toMatchObject({ kind: 'directory', mode: 0o1777, mtime: new Date(Date.UTC(2016, 0, 1)) });
    expect(layer.get('/usr/bin/su')).toMatchObject({ kind: 'file', mode: 0o4755 });
    expect((layer.get('/usr/bin/sudo') as { data: Buffer }).data.toString()).toBe('su');
    expect(layer.get('/usr/bin/sh')).toMatchObject({ kind: 'symlink', target: '../../bin/busybox' });
    expect(layer.get('/run/fifo')).toBeUndefined();
    // `usr` and `usr/bin` are implicit: held, without entries of their own
    expect(layer.get('/usr')).toBeUndefined();
    expect(layer.hasChildren('/usr')).toBe(true);
  });

  test('a hard link to nothing earlier in the tar is refused', async () => {
    await expect(layerFromTar(await tarOf([{ name: 'a', type: 'link', linkname: 'missing' }]))).rejects.toThrow(/hard link/);
  });

  test('member names cannot climb above the root', async () => {
    const layer = await layerFromTar(await tarOf([{ name: '../../etc/x', data: 'x' }]));
    expect(layer.entries().map(([path]) => path)).toEqual(['/etc/x']);
  });
});

describe('writing a layer tar', () => {
  const entries: Array<[string, LayerEntry]> = [
    ['/etc', dir()],
    ['/etc/group', whiteout],
    ['/etc/passwd', file('root\n')],
    ['/var', dir(0o700, true)],
    ['/var/log', dir()],
    ['/var/log/a-b', file('ab')],
    ['/bin/sh', link('busybox')],
    ['/tmp', dir(0o1777)],
  ];

  test('parents first, siblings bytewise, whiteouts by the name they delete, the opaque marker after its directory', async () => {
    expect(await memberNames(await layerToTar(new Layer(entries)))).toEqual([
      'symlink bin/sh',
      'directory etc/',
      'file etc/.wh.group',
      'file etc/passwd',
      'directory tmp/',
      'directory var/',
      'file var/.wh..wh..opq',
      'directory var/log/',
      'file var/log/a-b',
    ]);
  });

  test('layer → tar → layer gives the same layer', async () => {
    const layer = new Layer(entries);
    expect((await layerFromTar(await layerToTar(layer))).entries()).toEqual(layer.entries());
  });

  test('a layer read from a tar gives back those bytes, gunzipped (dockerd keeps them: tar-split)', async () => {
    const foreign = await tarOf([{ name: 'b' }, { name: 'a/', type: 'directory' }, { name: 'a/x', data: 'x' }]);
    expect((await layerToTar(await layerFromTar(foreign))).equals(foreign)).toBe(true);
    expect((await layerToTar(await layerFromTar(gzipSync(foreign)))).equals(foreign)).toBe(true);
    expect((await layerToTar(new Layer((await layerFromTar(foreign)).entries()))).equals(foreign)).toBe(false);
  });

  test('the same content gives the same bytes, whatever order it was put in', async () => {
    const once = await layerToTar(new Layer(entries));
    const reversed = await layerToTar(new Layer([...entries].reverse()));
    expect(reversed.equals(once)).toBe(true);
    expect((await layerToTar(new Layer([...entries, ['/etc/passwd', file('root!\n')]]))).equals(once)).toBe(false);
  });
});

describe('the synthetic busybox layer', () => {
  test('is the fixture rootfs tar, entry for entry (with an empty binary)', async () => {
    const fixture = await layerFromTar(await buildBusyboxRootfs(Buffer.alloc(0)));
    expect(busyboxRootfsLayer().entries()).toEqual(fixture.entries());
  });

  test('reports the size it is given, and its content bytes otherwise', () => {
    expect(busyboxRootfsLayer({ size: 1_093_484 }).size).toBe(1_093_484);
    expect(busyboxRootfsLayer().size).toBe(
      busyboxRootfsLayer()
        .entries()
        .reduce((sum, [, entry]) => sum + (entry.kind === 'file' ? entry.data.length : entry.kind === 'symlink' ? entry.target.length : 0), 0),
    );
  });

  test('a filesystem over it shows the fixture layout', () => {
    const fs = new LayeredFilesystem(new ImageLayerStack([busyboxRootfsLayer()]));
    expect(fs.list('/')).toEqual(['bin', 'dev', 'etc', 'proc', 'root', 'sys', 'tmp']);
    expect(fs.lstat('/bin/sh')).toMatchObject({ kind: 'symlink', linkTarget: 'busybox', mtime: ROOTFS_MTIME });
    expect(fs.stat('/bin/sh')).toMatchObject({ kind: 'file', name: 'busybox' });
    expect(fs.readFile('/etc/passwd').toString()).toMatch(/^root:x:0:0:root:\/root:\/bin\/sh\n/);
  });
});
