/**
 * The layered filesystem through the port processes use: copy-up, whiteouts, opaque directories,
 * read-only rootfs, mount points, sizes, commit, and sharing the image's layers.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { MountPointBusyError } from '../../../reference/engine/filesystem/filesystem-errors.ts';
import { ImageLayerStack } from '../../../reference/engine/filesystem/image-layer-stack.ts';
import type { LayerEntry } from '../../../reference/engine/filesystem/layer-entry.ts';
import { LayeredFilesystem } from '../../../reference/engine/filesystem/layered-filesystem.ts';
import { Layer } from '../../../reference/engine/filesystem/layer.ts';
import { codeOf } from './error-codes.ts';

const BASE_TIME = Date.UTC(2020, 0, 1);
const at = (seconds: number) => new Date(BASE_TIME + seconds * 1000);
const dir = (mode = 0o755, opaque = false): LayerEntry => ({ kind: 'directory', mode, uid: 0, gid: 0, mtime: at(0), opaque });
const file = (data: string, mode = 0o644): LayerEntry => ({ kind: 'file', mode, uid: 0, gid: 0, mtime: at(0), data: Buffer.from(data) });

/** bottom: /etc/{passwd,group}, /var/lib/{a,b}, /tmp; top: deletes /etc/group, makes /var/lib opaque with only c */
const bottom = new Layer([
  ['/etc', dir()],
  ['/etc/passwd', file('root\n')],
  ['/etc/group', file('root\n')],
  ['/var', dir()],
  ['/var/lib', dir()],
  ['/var/lib/a', file('a')],
  ['/var/lib/b', file('b')],
  ['/tmp', dir(0o1777)],
]);
const top = new Layer([
  ['/etc/group', { kind: 'whiteout' }],
  ['/var/lib', dir(0o700, true)],
  ['/var/lib/c', file('c')],
]);
const image = new ImageLayerStack([bottom, top]);

function container(options: { readOnly?: boolean } = {}) {
  let tick = 0;
  return new LayeredFilesystem(image, { ...options, clock: () => at(++tick) });
}

describe('the merged view of the image layers', () => {
  test('a whiteout in an upper layer hides the entry below', () => {
    const fs = container();
    expect(fs.list('/etc')).toEqual(['passwd']);
    expect(fs.stat('/etc/group')).toBeUndefined();
  });

  test('an opaque directory hides everything below it, and takes its own metadata', () => {
    const fs = container();
    expect(fs.list('/var/lib')).toEqual(['c']);
    expect(fs.stat('/var/lib')).toMatchObject({ kind: 'directory', mode: (0x80000000 | 0o700) >>> 0 });
  });

  test('/proc, /sys and /dev exist although the image has none of them', () => {
    expect(container().list('/')).toEqual(['dev', 'etc', 'proc', 'sys', 'tmp', 'var']);
  });
});

describe('writes go to the container layer', () => {
  test('changing an image file copies it up: the image layers and other containers are untouched', () => {
    const fs = container();
    const other = container();
    fs.writeFile('/etc/passwd', 'x\n', { append: true });
    expect(fs.readFile('/etc/passwd').toString()).toBe('root\nx\n');
    expect(other.readFile('/etc/passwd').toString()).toBe('root\n');
    expect((bottom.get('/etc/passwd') as { data: Buffer }).data.toString()).toBe('root\n');
    // the copy keeps the image file's mode; its mtime moves
    expect(fs.stat('/etc/passwd')).toMatchObject({ mode: 0o644, mtime: at(1) });
  });

  test('the buffer readFile returns is a copy', () => {
    const fs = container();
    fs.readFile('/etc/passwd').fill(0);
    expect(fs.readFile('/etc/passwd').toString()).toBe('root\n');
  });

  test('making an entry moves its directory mtime, and copies the directory up with its metadata', () => {
    const fs = container();
    fs.writeFile('/tmp/new', 'n');
    expect(fs.stat('/tmp')).toMatchObject({ mode: (0x80000000 | 0x00100000 | 0o777) >>> 0, mtime: at(1) });
    expect(fs.commitLayer().get('/tmp')).toMatchObject({ kind: 'directory', mode: 0o1777, opaque: false });
  });

  test('removing an image entry leaves a whiteout; removing a container entry leaves nothing', () => {
    const fs = container();
    fs.remove('/etc/passwd');
    fs.writeFile('/tmp/mine', 'm');
    fs.remove('/tmp/mine');
    expect(fs.stat('/etc/passwd')).toBeUndefined();
    const layer = fs.commitLayer();
    expect(layer.get('/etc/passwd')).toEqual({ kind: 'whiteout' });
    expect(layer.get('/tmp/mine')).toBeUndefined();
  });

  test('a file made where an image file was deleted shows the new content only', () => {
    const fs = container();
    fs.remove('/etc/passwd');
    fs.writeFile('/etc/passwd', 'new\n');
    expect(fs.readFile('/etc/passwd').toString()).toBe('new\n');
    expect(fs.commitLayer().get('/etc/passwd')).toMatchObject({ kind: 'file' });
  });

  test('a directory made where an image directory was deleted is opaque: the old contents stay gone', () => {
    const fs = container();
    fs.remove('/var', { recursive: true });
    fs.mkdir('/var/lib', { parents: true });
    expect(fs.list('/var')).toEqual(['lib']);
    expect(fs.list('/var/lib')).toEqual([]);
    const layer = fs.commitLayer();
    expect(layer.get('/var')).toMatchObject({ kind: 'directory', opaque: true });
    // /var/lib lies under an opaque directory: nothing below shows there, so it need not be opaque itself
    expect(layer.get('/var/lib')).toMatchObject({ kind: 'directory', opaque: false });
  });

  test('a new directory where the image has nothing is not opaque', () => {
    const fs = container();
    fs.mkdir('/srv');
    expect(fs.commitLayer().get('/srv')).toMatchObject({ kind: 'directory', opaque: false });
  });

  test('the port errors: ENOENT, ENOTDIR, EISDIR, EEXIST, ENOTEMPTY', () => {
    const fs = container();
    expect(codeOf(() => fs.readFile('/nope'))).toBe('ENOENT');
    expect(codeOf(() => fs.writeFile('/nope/x', ''))).toBe('ENOENT');
    expect(codeOf(() => fs.writeFile('/etc/passwd/x', ''))).toBe('ENOTDIR');
    expect(codeOf(() => fs.writeFile('/etc', ''))).toBe('EISDIR');
    expect(codeOf(() => fs.readFile('/etc'))).toBe('EISDIR');
    expect(codeOf(() => fs.mkdir('/etc'))).toBe('EEXIST');
    expect(codeOf(() => fs.mkdir('/etc', { parents: true }))).toBeUndefined();
    expect(codeOf(() => fs.mkdir('/etc/passwd', { parents: true }))).toBe('EEXIST');
    expect(codeOf(() => fs.mkdir('/a/b'))).toBe('ENOENT');
    expect(codeOf(() => fs.list('/etc/passwd'))).toBe('ENOTDIR');
    expect(codeOf(() => fs.remove('/var'))).toBe('ENOTEMPTY');
    expect(codeOf(() => fs.remove('/nope'))).toBe('ENOENT');
    expect(codeOf(() => fs.remove('/nope/deeper', { force: true }))).toBeUndefined();
    expect(codeOf(() => fs.symlink('x', '/etc/passwd'))).toBe('EEXIST');
  });

  test('mkdir -p makes every missing parent', () => {
    const fs = container();
    fs.mkdir('/a/b/c', { parents: true, mode: 0o700 });
    expect(fs.stat('/a/b')?.kind).toBe('directory');
    expect(fs.stat('/a/b/c')?.mode).toBe((0x80000000 | 0o700) >>> 0);
  });
});

describe('mount points', () => {
  test('cannot be removed, nor can /', () => {
    const fs = container();
    for (const path of ['/dev', '/proc', '/sys', '/']) {
      expect(() => fs.remove(path, { recursive: true }), path).toThrow(MountPointBusyError);
    }
  });

  test('what processes write under them is usable but is not part of the layer', () => {
    const fs = container();
    fs.writeFile('/dev/null', 'discarded');
    expect(fs.readFile('/dev/null').toString()).toBe('discarded');
    const layer = fs.commitLayer();
    expect(layer.entries()).toEqual([]);
    expect(fs.size().rw).toBe(0);
  });
});

describe('a read-only rootfs', () => {
  test('refuses every change with EROFS, after the lookup errors', () => {
    const fs = container({ readOnly: true });
    expect(codeOf(() => fs.writeFile('/etc/passwd', 'x'))).toBe('EROFS');
    expect(codeOf(() => fs.writeFile('/tmp/new', 'x'))).toBe('EROFS');
    expect(codeOf(() => fs.mkdir('/tmp/d'))).toBe('EROFS');
    expect(codeOf(() => fs.remove('/etc/passwd'))).toBe('EROFS');
    expect(codeOf(() => fs.symlink('/etc', '/tmp/l'))).toBe('EROFS');
    expect(codeOf(() => fs.writeFile('/nope/x', 'x'))).toBe('ENOENT');
    expect(codeOf(() => fs.mkdir('/etc'))).toBe('EEXIST');
    expect(fs.readFile('/etc/passwd').toString()).toBe('root\n');
    expect(fs.changes()).toEqual([]);
  });

  test('still lets processes use /dev, a tmpfs of its own', () => {
    const fs = container({ readOnly: true });
    fs.writeFile('/dev/null', 'x');
    expect(fs.stat('/dev/null')?.kind).toBe('file');
  });
});

describe('sizes and commit', () => {
  test('SizeRw counts file bytes and symlink targets in the container layer; SizeRootFs adds the image size', () => {
    const fs = container();
    fs.writeFile('/tmp/f', '12345');
    fs.symlink('/etc/passwd', '/tmp/l');
    fs.mkdir('/tmp/d');
    fs.remove('/etc/passwd');
    expect(image.size).toBe(5 + 5 + 1 + 1 + 1);
    expect(fs.size()).toEqual({ rw: 5 + '/etc/passwd'.length, rootFs: image.size + 5 + '/etc/passwd'.length });
  });

  test('a committed layer stacked on the image shows what the container showed', () => {
    const fs = container();
    fs.remove('/var/lib', { recursive: true });
    fs.mkdir('/var/lib');
    fs.writeFile('/var/lib/z', 'z');
    fs.writeFile('/etc/passwd', 'changed');
    const next = new LayeredFilesystem(new ImageLayerStack([bottom, top, fs.commitLayer()]));
    expect(next.list('/var/lib')).toEqual(['z']);
    expect(next.readFile('/etc/passwd').toString()).toBe('changed');
    expect(next.changes()).toEqual([]);
  });

  test('a committed layer does not change with later writes', () => {
    const fs = container();
    fs.writeFile('/tmp/f', 'before');
    const layer = fs.commitLayer();
    fs.writeFile('/tmp/f', 'after');
    fs.remove('/tmp/f');
    expect((layer.get('/tmp/f') as { data: Buffer }).data.toString()).toBe('before');
  });
});

describe('sharing the image', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  test('creating a container filesystem reads nothing of the image layers', () => {
    const reads = [vi.spyOn(Layer.prototype, 'get'), vi.spyOn(Layer.prototype, 'childNames'), vi.spyOn(Layer.prototype, 'hasChildren'), vi.spyOn(Layer.prototype, 'entries')];
    const many = Array.from({ length: 1000 }, () => new LayeredFilesystem(image));
    for (const spy of reads) expect(spy).not.toHaveBeenCalled();
    expect(many.every((fs) => fs.image === image)).toBe(true);
  });

  test('a thousand containers over a big image are made in no time', () => {
    const big = new ImageLayerStack([new Layer(Array.from({ length: 20_000 }, (_, i): [string, LayerEntry] => [`/data/${i}`, file(String(i))]))]);
    const started = performance.now();
    for (let i = 0; i < 1000; i += 1) new LayeredFilesystem(big);
    expect(performance.now() - started).toBeLessThan(250);
  });
});
