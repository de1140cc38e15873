/**
 * The archive endpoints' model (`HEAD`, `GET`, `PUT /containers/{id}/archive`) and export, with
 * dockerd's rules: trailing `/` and `/.`, symlinks as the last element, names in the tar, extraction
 * into a directory, noOverwriteDirNonDir, read-only rootfs, mount points.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { busyboxRootfsLayer } from '../../../reference/engine/filesystem/busybox-layer.ts';
import { containerAbsolutePath } from '../../../reference/engine/filesystem/container-archive.ts';
import { ArchiveBreakoutError, ArchiveUnpackError, OverwriteRefusedError, SymlinkLoopError, UnreadableArchiveError } from '../../../reference/engine/filesystem/filesystem-errors.ts';
import { ImageLayerStack } from '../../../reference/engine/filesystem/image-layer-stack.ts';
import { LayeredFilesystem } from '../../../reference/engine/filesystem/layered-filesystem.ts';
import { asyncCodeOf, codeOf } from './error-codes.ts';
import { membersOf, tarOf as baseTarOf, type Member } from './member-tars.ts';

const image = new ImageLayerStack([busyboxRootfsLayer()]);
const NOW = new Date(Date.UTC(2024, 5, 1, 12));
const OLD = new Date(Date.UTC(2010, 0, 1));

const DIR = 0x80000000;
const SYMLINK = 0x08000000;

function container(options: { readOnly?: boolean } = {}) {
  const fs = new LayeredFilesystem(image, { clock: () => NOW });
  fs.symlink('/etc', '/tmp/etc-link');
  fs.symlink('/', '/tmp/root-link');
  fs.symlink('/tmp/nowhere/file', '/tmp/dangling');
  fs.symlink('loop', '/tmp/loop');
  fs.writeFile('/dev/null', '');
  return options.readOnly ? new LayeredFilesystem(image, { readOnly: true, clock: () => NOW }) : fs;
}

/** Members as a foreign tool would write them: an old mtime, a user's owner. */
const tarOf = (members: Member[]) => baseTarOf(members, { mtime: OLD, uid: 1000, gid: 1000 });

const namesOf = async (archive: Buffer) => (await membersOf(archive)).map((member) => member.name);

describe('the container path', () => {
  test.each([
    ['etc/passwd', '/etc/passwd'],
    ['/etc/', '/etc/'],
    ['etc/.', '/etc/.'],
    ['/etc/./', '/etc/./'],
    ['.', '/.'],
    ['/', '/'],
    ['/tmp/../etc//passwd', '/etc/passwd'],
    ['../../etc', '/etc'],
  ])('%s is %s (PreserveTrailingDotOrSeparator)', (given, absolute) => {
    expect(containerAbsolutePath(given)).toBe(absolute);
  });
});

describe('path stat (HEAD)', () => {
  test('a file, relative to /', () => {
    expect(container().statPath('etc/passwd')).toEqual({ name: 'passwd', size: 82, mode: 0o644, mtime: image.view.lookup('/etc/passwd')?.entry.mtime, linkTarget: '' });
  });

  test('a directory: Go FileMode bits, sticky bit at Go`s place', () => {
    const fs = container();
    expect(fs.statPath('/tmp')).toMatchObject({ name: 'tmp', mode: (DIR | 0x00100000 | 0o777) >>> 0, size: 4096 });
    expect(fs.statPath('/etc/')).toMatchObject({ name: 'etc', mode: (DIR | 0o755) >>> 0 });
    expect(fs.statPath('/etc/.')).toMatchObject({ name: '.', mode: (DIR | 0o755) >>> 0 });
    expect(fs.statPath('/')).toMatchObject({ name: '/', mode: (DIR | 0o755) >>> 0 });
  });

  test('a symlink as the last element is the link itself; linkTarget is its full resolution', () => {
    const fs = container();
    expect(fs.statPath('/bin/sh')).toMatchObject({ name: 'sh', mode: (SYMLINK | 0o777) >>> 0, size: 7, linkTarget: '/bin/busybox' });
    expect(fs.statPath('/tmp/etc-link')).toMatchObject({ name: 'etc-link', linkTarget: '/etc' });
    expect(fs.statPath('/tmp/dangling')).toMatchObject({ linkTarget: '/tmp/nowhere/file' });
  });

  test('`..` in the path is cleaned away lexically (Go`s Clean) before any symlink is followed', () => {
    const fs = container();
    expect(fs.statPath('/tmp/etc-link/passwd')).toMatchObject({ name: 'passwd', mode: 0o644 });
    // /tmp/etc-link/.. is /tmp, not /: there is no /tmp/bin
    expect(codeOf(() => fs.statPath('/tmp/etc-link/../bin/busybox'))).toBe('ENOENT');
  });

  test('a trailing / follows the link: the directory, under the link`s name', () => {
    expect(container().statPath('/tmp/etc-link/')).toMatchObject({ name: 'etc-link', mode: (DIR | 0o755) >>> 0, linkTarget: '' });
  });

  test('a trailing / or /. on a file is ENOTDIR; nothing there is ENOENT', () => {
    const fs = container();
    expect(codeOf(() => fs.statPath('/etc/passwd/'))).toBe('ENOTDIR');
    expect(codeOf(() => fs.statPath('/etc/passwd/.'))).toBe('ENOTDIR');
    expect(codeOf(() => fs.statPath('/nope'))).toBe('ENOENT');
    expect(codeOf(() => fs.statPath('/nope/deeper/'))).toBe('ENOENT');
    expect(codeOf(() => fs.statPath('/tmp/dangling/'))).toBe('ENOENT');
  });

  test('nothing under /proc, /sys, /dev can be copied; the mount points themselves can', () => {
    const fs = container();
    expect(fs.stat('/dev/null')?.kind).toBe('file');
    expect(codeOf(() => fs.statPath('/dev/null'))).toBe('ENOENT');
    expect(fs.statPath('/dev')).toMatchObject({ name: 'dev' });
  });

  test('a symlink loop in the way is an error', () => {
    expect(() => container().statPath('/tmp/loop/')).toThrow(SymlinkLoopError);
  });
});

describe('archive of a path (GET)', () => {
  test('a file is one member named by the last element', async () => {
    const { stat, tar: archive } = await container().archivePath('/etc/passwd');
    expect(stat.name).toBe('passwd');
    const members = await membersOf(archive);
    expect(members.map((m) => [m.name, m.type])).toEqual([['passwd', 'file']]);
    expect(members[0]?.data).toMatch(/^root:/);
  });

  test('a directory is itself and all under it; a trailing / changes nothing', async () => {
    const fs = container();
    expect(await namesOf((await fs.archivePath('/etc')).tar)).toEqual(['etc/', 'etc/group', 'etc/passwd']);
    expect(await namesOf((await fs.archivePath('etc/')).tar)).toEqual(['etc/', 'etc/group', 'etc/passwd']);
  });

  test('/. is the directory`s contents', async () => {
    expect(await namesOf((await container().archivePath('/etc/.')).tar)).toEqual(['./', './group', './passwd']);
  });

  test('a symlink is archived as the link; with a trailing / its target`s contents, under the link`s name', async () => {
    const fs = container();
    expect(await membersOf((await fs.archivePath('/tmp/etc-link')).tar)).toEqual([{ name: 'etc-link', type: 'symlink', linkname: '/etc', data: '' }]);
    expect(await namesOf((await fs.archivePath('/tmp/etc-link/')).tar)).toEqual(['etc-link/', 'etc-link/group', 'etc-link/passwd']);
    expect(await namesOf((await fs.archivePath('/tmp/etc-link/.')).tar)).toEqual(['./', './group', './passwd']);
  });

  test('/ is every entry named from the root, mount points empty', async () => {
    const names = await namesOf((await container().archivePath('/')).tar);
    expect(names.slice(0, 3)).toEqual(['/', '/bin/', '/bin/busybox']);
    expect(names).toContain('/dev/');
    expect(names).toContain('/tmp/etc-link');
    expect(names).not.toContain('/dev/null');
  });

  test('rejects what stat rejects', async () => {
    const fs = container();
    expect(await asyncCodeOf(() => fs.archivePath('/etc/passwd/'))).toBe('ENOTDIR');
    expect(await asyncCodeOf(() => fs.archivePath('/nope'))).toBe('ENOENT');
  });
});

describe('extraction into a directory (PUT)', () => {
  test('members land under the directory with their modes, owners and mtimes; missing parents are made', async () => {
    const fs = container();
    await fs.extractArchive('/tmp', await tarOf([{ name: 'd/', type: 'directory', mode: 0o700 }, { name: 'd/f', data: 'f', mode: 0o600 }, { name: 'x/y/z', data: 'z' }]));
    expect(fs.readFile('/tmp/d/f').toString()).toBe('f');
    expect(fs.stat('/tmp/d/f')).toMatchObject({ mode: 0o600, mtime: OLD });
    expect(fs.commitLayer().get('/tmp/d/f')).toMatchObject({ uid: 1000, gid: 1000 });
    // a directory gets its mtime back after its contents were made
    expect(fs.stat('/tmp/d')).toMatchObject({ mode: (DIR | 0o700) >>> 0, mtime: OLD });
    expect(fs.stat('/tmp/x/y')).toMatchObject({ mode: (DIR | 0o755) >>> 0, mtime: NOW });
    expect(fs.changes()).toEqual(expect.arrayContaining([{ Path: '/tmp/d/f', Kind: 1 }, { Path: '/tmp/x/y/z', Kind: 1 }]));
  });

  test('the path must be an existing directory; symlinks on the way, also the last, are followed', async () => {
    const fs = container();
    const archive = await tarOf([{ name: 'new', data: 'n' }]);
    expect(await asyncCodeOf(() => fs.extractArchive('/nope', archive))).toBe('ENOENT');
    expect(await asyncCodeOf(() => fs.extractArchive('/etc/passwd', archive))).toBe('ENOTDIR');
    await fs.extractArchive('tmp/etc-link', archive);
    expect(fs.readFile('/etc/new').toString()).toBe('n');
  });

  test('a read-only rootfs refuses with EROFS, once the path is known good', async () => {
    const fs = container({ readOnly: true });
    const archive = await tarOf([{ name: 'new', data: 'n' }]);
    expect(await asyncCodeOf(() => fs.extractArchive('/nope', archive))).toBe('ENOENT');
    expect(await asyncCodeOf(() => fs.extractArchive('/tmp', archive))).toBe('EROFS');
    expect(fs.stat('/tmp/new')).toBeUndefined();
  });

  test('noOverwriteDirNonDir refuses a non-directory over a directory and the reverse', async () => {
    const fs = container();
    fs.mkdir('/tmp/d');
    fs.writeFile('/tmp/f', 'f');
    const fileOverDir = fs.extractArchive('/tmp', await tarOf([{ name: 'd', data: 'now a file' }]), { noOverwriteDirNonDir: true });
    await expect(fileOverDir).rejects.toThrow(OverwriteRefusedError);
    await expect(fileOverDir).rejects.toMatchObject({ code: 'EEXIST', existing: 'directory', path: '/tmp/d' });
    const dirOverFile = fs.extractArchive('/tmp', await tarOf([{ name: 'f/', type: 'directory' }]), { noOverwriteDirNonDir: true });
    await expect(dirOverFile).rejects.toMatchObject({ code: 'EEXIST', existing: 'non-directory', path: '/tmp/f' });
    expect(fs.stat('/tmp/d')?.kind).toBe('directory');
    expect(fs.stat('/tmp/f')?.kind).toBe('file');
  });

  test('without noOverwriteDirNonDir, what is in the way is replaced; a directory over a directory merges', async () => {
    const fs = container();
    fs.mkdir('/tmp/d');
    fs.writeFile('/tmp/d/inside', 'i');
    fs.writeFile('/tmp/f', 'f');
    fs.mkdir('/tmp/m');
    fs.writeFile('/tmp/m/old', 'o');
    await fs.extractArchive('/tmp', await tarOf([{ name: 'd', data: 'now a file' }, { name: 'f/', type: 'directory' }, { name: 'm/', type: 'directory' }, { name: 'm/new', data: 'n' }]));
    expect(fs.readFile('/tmp/d').toString()).toBe('now a file');
    expect(fs.stat('/tmp/f')?.kind).toBe('directory');
    expect(fs.list('/tmp/m')).toEqual(['new', 'old']);
  });

  test('an image directory replaced by a file and back stays free of the image`s contents', async () => {
    const fs = container();
    await fs.extractArchive('/', await tarOf([{ name: 'etc', data: 'file' }]));
    await fs.extractArchive('/', await tarOf([{ name: 'etc/', type: 'directory' }]));
    expect(fs.list('/etc')).toEqual([]);
  });

  test('a gzipped tar is unpacked too', async () => {
    const fs = container();
    await fs.extractArchive('/tmp', gzipSync(await tarOf([{ name: 'zipped', data: 'z' }])));
    expect(fs.readFile('/tmp/zipped').toString()).toBe('z');
  });

  test('a body that is no tar, or a member that cannot be made, is an unpack error, never a problem of the directory', async () => {
    const fs = container();
    await expect(fs.extractArchive('/tmp', Buffer.alloc(1024, 7))).rejects.toThrow(UnreadableArchiveError);
    fs.writeFile('/tmp/file', 'f');
    const underFile = fs.extractArchive('/tmp', await tarOf([{ name: 'first', data: '1' }, { name: 'file/x', data: 'x' }]));
    await expect(underFile).rejects.toThrow(ArchiveUnpackError);
    await expect(underFile).rejects.toMatchObject({ cause: { code: 'ENOTDIR' } });
    // the members before the failing one stay, as in dockerd
    expect(fs.readFile('/tmp/first').toString()).toBe('1');
  });

  test('a member climbing out is refused', async () => {
    const fs = container();
    await expect(fs.extractArchive('/tmp', await tarOf([{ name: '../etc/evil', data: 'e' }]))).rejects.toThrow(ArchiveBreakoutError);
    expect(fs.stat('/etc/evil')).toBeUndefined();
  });

  test('symlinks inside resolve within the directory, as in dockerd`s chroot', async () => {
    const fs = container();
    fs.symlink('../../..', '/tmp/up');
    await fs.extractArchive('/tmp', await tarOf([{ name: 'root-link/x', data: 'x' }, { name: '/abs', data: 'a' }, { name: 'up/y', data: 'y' }]));
    expect(fs.readFile('/tmp/x').toString()).toBe('x');
    expect(fs.stat('/x')).toBeUndefined();
    expect(fs.readFile('/tmp/abs').toString()).toBe('a');
    expect(fs.readFile('/tmp/y').toString()).toBe('y');
    expect(fs.stat('/y')).toBeUndefined();
  });

  test('a `.` member leaves the directory itself alone; a hard link is a copy', async () => {
    const fs = container();
    await fs.extractArchive('/tmp', await tarOf([{ name: './', type: 'directory', mode: 0o700 }, { name: './f', data: 'same' }, { name: 'h', type: 'link', linkname: 'f' }]));
    expect(fs.stat('/tmp')?.mode).toBe((DIR | 0x00100000 | 0o777) >>> 0);
    expect(fs.readFile('/tmp/h').toString()).toBe('same');
  });

  test('GET from one container, PUT into another: the same tree', async () => {
    const source = container();
    source.mkdir('/tmp/tree/sub', { parents: true });
    source.writeFile('/tmp/tree/sub/f', 'deep');
    source.symlink('sub/f', '/tmp/tree/l');
    const target = container();
    await target.extractArchive('/root', (await source.archivePath('/tmp/tree')).tar);
    expect(target.list('/root/tree')).toEqual(['l', 'sub']);
    expect(target.readFile('/root/tree/l').toString()).toBe('deep');
  });
});

describe('copy of a resource (the old copy endpoint)', () => {
  test('every symlink is followed, the last too: the tar holds what the path resolves to, under its own name', async () => {
    const fs = container();
    expect(await membersOf(await fs.copyResource('/bin/sh'))).toEqual([{ name: 'busybox', type: 'file', linkname: null, data: '' }]);
    expect(await namesOf(await fs.copyResource('tmp/etc-link'))).toEqual(['etc/', 'etc/group', 'etc/passwd']);
    expect(await namesOf(await fs.copyResource('/tmp/etc-link/passwd'))).toEqual(['passwd']);
  });

  test('nothing there, a dangling link, or something under a mount point is ENOENT', async () => {
    const fs = container();
    expect(await asyncCodeOf(() => fs.copyResource('/nope'))).toBe('ENOENT');
    expect(await asyncCodeOf(() => fs.copyResource('/tmp/dangling'))).toBe('ENOENT');
    expect(await asyncCodeOf(() => fs.copyResource('/dev/null'))).toBe('ENOENT');
  });
});

describe('export', () => {
  test('every entry named from the root, without / itself; mount points empty; deletions gone', async () => {
    const fs = container();
    fs.remove('/etc/group');
    fs.writeFile('/root/added', 'a');
    const names = await namesOf(await fs.exportTar());
    expect(names[0]).toBe('bin/');
    expect(names).toEqual(expect.arrayContaining(['bin/busybox', 'dev/', 'proc/', 'sys/', 'etc/passwd', 'root/added', 'tmp/etc-link']));
    expect(names).not.toContain('etc/group');
    expect(names).not.toContain('dev/null');
    expect(names.filter((name) => name.startsWith('/') || name.startsWith('./'))).toEqual([]);
  });
});
