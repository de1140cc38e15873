/**
 * Symlinks and `..` in the layered filesystem: absolute and relative targets, chains, loops, the
 * depth limit, and no way above `/`.
 */
import { describe, expect, test } from 'vitest';
import { MAX_SYMLINKS, SymlinkLoopError } from '../../../reference/engine/filesystem/filesystem-errors.ts';
import { ImageLayerStack } from '../../../reference/engine/filesystem/image-layer-stack.ts';
import type { LayerEntry } from '../../../reference/engine/filesystem/layer-entry.ts';
import { LayeredFilesystem } from '../../../reference/engine/filesystem/layered-filesystem.ts';
import { Layer } from '../../../reference/engine/filesystem/layer.ts';
import { codeOf } from './error-codes.ts';

const mtime = new Date(Date.UTC(2020, 0, 1));
const dir: LayerEntry = { kind: 'directory', mode: 0o755, uid: 0, gid: 0, mtime, opaque: false };
const file = (data: string): LayerEntry => ({ kind: 'file', mode: 0o644, uid: 0, gid: 0, mtime, data: Buffer.from(data) });
const link = (target: string): LayerEntry => ({ kind: 'symlink', mode: 0o777, uid: 0, gid: 0, mtime, target });

const image = new ImageLayerStack([
  new Layer([
    ['/etc', dir],
    ['/etc/hostname', file('box\n')],
    ['/usr', dir],
    ['/usr/bin', dir],
    ['/usr/bin/tool', file('tool')],
    ['/bin', link('usr/bin')], // relative, at the root
    ['/etc/absolute', link('/etc/hostname')],
    ['/etc/relative', link('hostname')],
    ['/etc/up', link('../usr/bin/tool')],
    ['/etc/escape', link('../../../../../etc/hostname')], // more `..` than there are levels
    ['/etc/chain1', link('chain2')],
    ['/etc/chain2', link('/etc/absolute')],
    ['/etc/loop-a', link('loop-b')],
    ['/etc/loop-b', link('loop-a')],
    ['/etc/self', link('self')],
    ['/etc/dangling', link('/tmp/made-through-link')],
    ['/etc/through-file', link('/etc/hostname/x')],
    ['/etc/dir-link', link('/usr/bin')],
    ['/tmp', dir],
  ]),
]);

const fs = () => new LayeredFilesystem(image);

describe('following symlinks', () => {
  test('absolute and relative targets, at the end and in the middle of a path', () => {
    const f = fs();
    expect(f.readFile('/etc/absolute').toString()).toBe('box\n');
    expect(f.readFile('/etc/relative').toString()).toBe('box\n');
    expect(f.readFile('/etc/up').toString()).toBe('tool');
    expect(f.readFile('/bin/tool').toString()).toBe('tool');
    expect(f.list('/etc/dir-link')).toEqual(['tool']);
    expect(f.readFile('/etc/chain1').toString()).toBe('box\n');
  });

  test('stat follows, lstat does not; stat names the target', () => {
    const f = fs();
    expect(f.lstat('/etc/relative')).toMatchObject({ kind: 'symlink', name: 'relative', linkTarget: 'hostname', size: 'hostname'.length, mode: (0x08000000 | 0o777) >>> 0 });
    expect(f.stat('/etc/relative')).toMatchObject({ kind: 'file', name: 'hostname', size: 4 });
  });

  test('`..` never climbs above /, through a link or not', () => {
    const f = fs();
    expect(f.readFile('/etc/escape').toString()).toBe('box\n');
    expect(f.readFile('/../../etc/hostname').toString()).toBe('box\n');
  });

  test('`..` after a symlink to a directory goes to the parent of its target, as the kernel does', () => {
    expect(fs().list('/etc/dir-link/..')).toEqual(['bin']);
  });

  test('a loop is ELOOP: stat finds nothing, reading throws', () => {
    const f = fs();
    expect(f.stat('/etc/loop-a')).toBeUndefined();
    expect(f.stat('/etc/self')).toBeUndefined();
    expect(f.lstat('/etc/loop-a')?.kind).toBe('symlink');
    expect(() => f.readFile('/etc/loop-a')).toThrow(SymlinkLoopError);
    expect(() => f.writeFile('/etc/self', 'x')).toThrow(SymlinkLoopError);
    expect(() => f.list('/etc/loop-b/x')).toThrow(SymlinkLoopError);
  });

  test(`a chain of ${MAX_SYMLINKS} links resolves, one more does not`, () => {
    const f = fs();
    f.writeFile('/tmp/end', 'end');
    f.symlink('/tmp/end', '/tmp/link0');
    for (let i = 1; i <= MAX_SYMLINKS; i += 1) f.symlink(`link${i - 1}`, `/tmp/link${i}`);
    expect(f.readFile(`/tmp/link${MAX_SYMLINKS - 1}`).toString()).toBe('end');
    expect(() => f.readFile(`/tmp/link${MAX_SYMLINKS}`)).toThrow(SymlinkLoopError);
  });

  test('a symlink to a file in the middle of a path is ENOTDIR', () => {
    const f = fs();
    expect(codeOf(() => f.readFile('/etc/through-file'))).toBe('ENOTDIR');
    expect(codeOf(() => f.readFile('/etc/absolute/x'))).toBe('ENOTDIR');
  });
});

describe('writing through symlinks', () => {
  test('writing a dangling symlink creates its target; the link stays a link', () => {
    const f = fs();
    f.writeFile('/etc/dangling', 'made');
    expect(f.readFile('/tmp/made-through-link').toString()).toBe('made');
    expect(f.lstat('/etc/dangling')?.kind).toBe('symlink');
  });

  test('writing through a link to an image file copies the target up, not the link', () => {
    const f = fs();
    f.writeFile('/etc/absolute', 'new\n');
    expect(f.readFile('/etc/hostname').toString()).toBe('new\n');
    const layer = f.commitLayer();
    expect(layer.get('/etc/hostname')?.kind).toBe('file');
    expect(layer.get('/etc/absolute')).toBeUndefined();
  });

  test('removing a link removes the link, not its target', () => {
    const f = fs();
    f.remove('/etc/absolute');
    expect(f.lstat('/etc/absolute')).toBeUndefined();
    expect(f.readFile('/etc/hostname').toString()).toBe('box\n');
  });

  test('mkdir and symlink do not follow a link in the last place', () => {
    const f = fs();
    expect(codeOf(() => f.mkdir('/etc/dangling'))).toBe('EEXIST');
    expect(codeOf(() => f.symlink('x', '/etc/dangling'))).toBe('EEXIST');
    f.mkdir('/etc/dir-link/sub');
    expect(f.list('/usr/bin')).toEqual(['sub', 'tool']);
  });
});
