/**
 * `changes()` against lists worked out by hand from dockerd's rules (naive diff of the container's
 * tree against the image's: see reference/engine/filesystem/filesystem-changes.ts).
 */
import { describe, expect, test } from 'vitest';
import { ImageLayerStack } from '../../../reference/engine/filesystem/image-layer-stack.ts';
import type { LayerEntry } from '../../../reference/engine/filesystem/layer-entry.ts';
import { LayeredFilesystem } from '../../../reference/engine/filesystem/layered-filesystem.ts';
import { Layer } from '../../../reference/engine/filesystem/layer.ts';
import { tarOf } from './member-tars.ts';

const IMAGE_TIME = new Date(Date.UTC(2020, 0, 1));
const dir: LayerEntry = { kind: 'directory', mode: 0o755, uid: 0, gid: 0, mtime: IMAGE_TIME, opaque: false };
const file = (data: string): LayerEntry => ({ kind: 'file', mode: 0o644, uid: 0, gid: 0, mtime: IMAGE_TIME, data: Buffer.from(data) });

const image = new ImageLayerStack([
  new Layer([
    ['/bin', dir],
    ['/bin/busybox', file('elf')],
    ['/bin/sh', { kind: 'symlink', mode: 0o777, uid: 0, gid: 0, mtime: IMAGE_TIME, target: 'busybox' }],
    ['/etc', dir],
    ['/etc/group', file('root:x:0:\n')],
    ['/etc/passwd', file('root:x:0:0::/root:/bin/sh\n')],
    ['/etc/ssl', dir],
    ['/etc/ssl/certs', dir],
    ['/etc/ssl/certs/ca.pem', file('pem')],
    ['/root', dir],
    ['/root/.profile', file('PS1=#\n')],
    ['/tmp', dir],
  ]),
]);

function container(clock?: () => Date) {
  let tick = 0;
  return new LayeredFilesystem(image, { clock: clock ?? (() => new Date(IMAGE_TIME.getTime() + ++tick * 1000)) });
}

const C = (Path: string) => ({ Path, Kind: 0 });
const A = (Path: string) => ({ Path, Kind: 1 });
const D = (Path: string) => ({ Path, Kind: 2 });

describe('changes', () => {
  test('none for a fresh container', () => {
    expect(container().changes()).toEqual([]);
  });

  test('a modified file, and its directory', () => {
    const fs = container();
    fs.writeFile('/etc/passwd', 'x\n', { append: true });
    expect(fs.changes()).toEqual([C('/etc'), C('/etc/passwd')]);
  });

  test('a file modified deep down marks every directory above it, but /', () => {
    const fs = container();
    fs.writeFile('/etc/ssl/certs/ca.pem', 'new pem');
    expect(fs.changes()).toEqual([C('/etc'), C('/etc/ssl'), C('/etc/ssl/certs'), C('/etc/ssl/certs/ca.pem')]);
  });

  test('an added file', () => {
    const fs = container();
    fs.writeFile('/tmp/new', 'n');
    expect(fs.changes()).toEqual([C('/tmp'), A('/tmp/new')]);
  });

  test('an added directory: it and everything in it are added', () => {
    const fs = container();
    fs.mkdir('/tmp/a/b', { parents: true });
    fs.writeFile('/tmp/a/b/f', 'f');
    fs.mkdir('/srv');
    expect(fs.changes()).toEqual([A('/srv'), C('/tmp'), A('/tmp/a'), A('/tmp/a/b'), A('/tmp/a/b/f')]);
  });

  test('a deleted file, and its directory', () => {
    const fs = container();
    fs.remove('/etc/group');
    expect(fs.changes()).toEqual([C('/etc'), D('/etc/group')]);
  });

  test('a deleted directory shows alone: not its contents, and / is never listed', () => {
    const fs = container();
    fs.remove('/root', { recursive: true });
    expect(fs.changes()).toEqual([D('/root')]);
  });

  test('a directory deleted and made again: what it held before is deleted, the directory modified', () => {
    const fs = container();
    fs.remove('/etc', { recursive: true });
    fs.mkdir('/etc');
    fs.writeFile('/etc/new', 'n');
    expect(fs.changes()).toEqual([C('/etc'), D('/etc/group'), A('/etc/new'), D('/etc/passwd'), D('/etc/ssl')]);
  });

  test('a file replaced by a directory is modified, and what the directory holds added', () => {
    const fs = container();
    fs.remove('/etc/passwd');
    fs.mkdir('/etc/passwd');
    fs.writeFile('/etc/passwd/x', 'x');
    expect(fs.changes()).toEqual([C('/etc'), C('/etc/passwd'), A('/etc/passwd/x')]);
  });

  test('a symlink made again with another target is modified', () => {
    const fs = container();
    fs.remove('/bin/sh');
    fs.symlink('/bin/busybox', '/bin/sh');
    expect(fs.changes()).toEqual([C('/bin'), C('/bin/sh')]);
  });

  test('a file added and removed again leaves nothing: a directory mtime alone is no change', () => {
    const fs = container();
    fs.writeFile('/tmp/gone', 'g');
    fs.remove('/tmp/gone');
    expect(fs.stat('/tmp')?.mtime).not.toEqual(IMAGE_TIME);
    expect(fs.changes()).toEqual([]);
  });

  test('a file rewritten with the same size and mtime is no change (dockerd compares stats, not contents)', () => {
    const fs = container(() => IMAGE_TIME);
    fs.writeFile('/bin/busybox', 'ELF');
    expect(fs.changes()).toEqual([]);
    fs.writeFile('/bin/busybox', 'ELF!');
    expect(fs.changes()).toEqual([C('/bin'), C('/bin/busybox')]);
  });

  test('sorted by path, bytewise (`-` sorts before `/`)', () => {
    const fs = container();
    fs.mkdir('/tmp/a');
    fs.writeFile('/tmp/a/x', 'x');
    fs.writeFile('/tmp/a-b', 'ab');
    expect(fs.changes().map((change) => change.Path)).toEqual(['/tmp', '/tmp/a', '/tmp/a-b', '/tmp/a/x']);
  });

  test('nothing under the mount points shows', () => {
    const fs = container();
    fs.writeFile('/dev/null', 'x');
    fs.mkdir('/proc/1', { parents: true });
    expect(fs.changes()).toEqual([]);
  });

  test('a directory whose metadata changed is modified', async () => {
    const fs = container();
    await fs.extractArchive('/', await tarOf([{ name: 'etc/', type: 'directory', mode: 0o700, mtime: IMAGE_TIME }]));
    expect(fs.changes()).toEqual([C('/etc')]);
  });
});
