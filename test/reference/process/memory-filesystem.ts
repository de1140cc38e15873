/**
 * A small in-memory ContainerFilesystem for the process tests, with the layout of the fixture
 * busybox image. The real layered filesystem lives in reference/engine/filesystem; this fake only
 * has to keep the port's promises (errors by code, sorted listings, symlinks followed by stat).
 */
import { posix } from 'node:path';
import { FilesystemError, type ContainerFilesystem, type EntryKind, type EntryStat } from '../../../reference/engine/filesystem/container-filesystem.ts';

interface Node {
  kind: EntryKind;
  mode: number;
  mtime: Date;
  data: Buffer;
  target: string;
}

export class MemoryFilesystem implements ContainerFilesystem {
  private readonly nodes = new Map<string, Node>([['/', { kind: 'directory', mode: 0o755, mtime: new Date(0), data: Buffer.alloc(0), target: '' }]]);
  readOnly = false;

  stat(path: string): EntryStat | undefined {
    const resolved = this.resolve(path, true);
    return resolved === undefined ? undefined : this.describe(resolved);
  }

  lstat(path: string): EntryStat | undefined {
    const resolved = this.resolve(path, false);
    return resolved === undefined ? undefined : this.describe(resolved);
  }

  readFile(path: string): Buffer {
    const resolved = this.resolve(path, true);
    const node = resolved === undefined ? undefined : this.nodes.get(resolved);
    if (node === undefined) throw new FilesystemError('ENOENT', path);
    if (node.kind === 'directory') throw new FilesystemError('EISDIR', path);
    return Buffer.from(node.data);
  }

  writeFile(path: string, data: Buffer | string, options: { append?: boolean; mode?: number } = {}): void {
    this.writable(path);
    const parent = this.existingDirectory(posix.dirname(path), path);
    const target = posix.join(parent, posix.basename(path));
    const resolved = this.resolve(target, true) ?? target;
    const existing = this.nodes.get(resolved);
    if (existing?.kind === 'directory') throw new FilesystemError('EISDIR', path);
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    if (existing && options.append) {
      existing.data = Buffer.concat([existing.data, bytes]);
      existing.mtime = new Date();
    } else this.nodes.set(resolved, { kind: 'file', mode: options.mode ?? existing?.mode ?? 0o644, mtime: new Date(), data: Buffer.from(bytes), target: '' });
  }

  mkdir(path: string, options: { parents?: boolean; mode?: number } = {}): void {
    this.writable(path);
    if (options.parents) {
      let current = '/';
      for (const part of path.split('/').filter(Boolean)) {
        const next = posix.join(current, part);
        const resolved = this.resolve(next, true);
        const node = resolved === undefined ? undefined : this.nodes.get(resolved);
        if (node === undefined) this.nodes.set(next, this.directoryNode(options.mode));
        else if (node.kind !== 'directory') throw new FilesystemError('ENOTDIR', next);
        current = resolved ?? next;
      }
      return;
    }
    const parent = this.existingDirectory(posix.dirname(path), path);
    const target = posix.join(parent, posix.basename(path));
    if (this.lstat(target) !== undefined) throw new FilesystemError('EEXIST', path);
    this.nodes.set(target, this.directoryNode(options.mode));
  }

  list(path: string): string[] {
    const resolved = this.resolve(path, true);
    const node = resolved === undefined ? undefined : this.nodes.get(resolved);
    if (node === undefined || resolved === undefined) throw new FilesystemError('ENOENT', path);
    if (node.kind !== 'directory') throw new FilesystemError('ENOTDIR', path);
    return this.children(resolved).map((child) => posix.basename(child)).sort();
  }

  remove(path: string, options: { recursive?: boolean; force?: boolean } = {}): void {
    this.writable(path);
    const parent = this.resolve(posix.dirname(path), true);
    const target = parent === undefined ? path : posix.join(parent, posix.basename(path));
    const node = this.nodes.get(target);
    if (node === undefined) {
      if (options.force) return;
      throw new FilesystemError('ENOENT', path);
    }
    if (node.kind === 'directory') {
      const descendants = [...this.nodes.keys()].filter((key) => key.startsWith(`${target}/`));
      if (descendants.length > 0 && !options.recursive) throw new FilesystemError('ENOTEMPTY', path);
      for (const key of descendants) this.nodes.delete(key);
    }
    this.nodes.delete(target);
  }

  symlink(target: string, path: string): void {
    this.writable(path);
    const parent = this.existingDirectory(posix.dirname(path), path);
    const at = posix.join(parent, posix.basename(path));
    if (this.lstat(at) !== undefined) throw new FilesystemError('EEXIST', path);
    this.nodes.set(at, { kind: 'symlink', mode: 0o777, mtime: new Date(), data: Buffer.alloc(0), target });
  }

  /** For tests: a file's content as text, undefined when missing. */
  text(path: string): string | undefined {
    return this.stat(path) === undefined ? undefined : this.readFile(path).toString('utf8');
  }

  private directoryNode(mode = 0o755): Node {
    return { kind: 'directory', mode, mtime: new Date(), data: Buffer.alloc(0), target: '' };
  }

  private writable(path: string): void {
    if (this.readOnly) throw new FilesystemError('EROFS', path);
  }

  private existingDirectory(path: string, forPath: string): string {
    const resolved = this.resolve(path, true);
    const node = resolved === undefined ? undefined : this.nodes.get(resolved);
    if (node === undefined || resolved === undefined) throw new FilesystemError('ENOENT', forPath);
    if (node.kind !== 'directory') throw new FilesystemError('ENOTDIR', forPath);
    return resolved;
  }

  private children(directory: string): string[] {
    const prefix = directory === '/' ? '/' : `${directory}/`;
    return [...this.nodes.keys()].filter((key) => key !== '/' && key.startsWith(prefix) && !key.slice(prefix.length).includes('/'));
  }

  /** The real path of `path`, following symlinks on the way (and at the end when asked). */
  private resolve(path: string, followLast: boolean, depth = 0): string | undefined {
    if (depth > 16) return undefined;
    let current = '/';
    const parts = posix.normalize(path).split('/').filter(Boolean);
    for (const [index, part] of parts.entries()) {
      const next = posix.join(current, part);
      const node = this.nodes.get(next);
      if (node === undefined) return undefined;
      const last = index === parts.length - 1;
      if (node.kind === 'symlink' && (!last || followLast)) {
        const resolved = this.resolve(posix.resolve(current, node.target), true, depth + 1);
        if (resolved === undefined) return undefined;
        current = resolved;
      } else {
        if (!last && node.kind !== 'directory') return undefined;
        current = next;
      }
    }
    return current;
  }

  private describe(resolved: string): EntryStat {
    const node = this.nodes.get(resolved) as Node;
    const typeBits = node.kind === 'directory' ? 0x80000000 : node.kind === 'symlink' ? 0x08000000 : 0;
    return {
      name: posix.basename(resolved) || '/',
      kind: node.kind,
      mode: (typeBits | node.mode) >>> 0,
      size: node.data.length,
      mtime: node.mtime,
      linkTarget: node.target,
    };
  }
}

const APPLET_LINKS = ['sh', 'ash', 'cat', 'echo', 'env', 'false', 'hostname', 'id', 'ls', 'mkdir', 'pwd', 'rm', 'seq', 'sleep', 'top', 'touch', 'true', 'grep'];

/** The fixture busybox image's layout. */
export function busyboxFilesystem(): MemoryFilesystem {
  const fs = new MemoryFilesystem();
  for (const directory of ['/bin', '/etc', '/tmp', '/root', '/proc', '/sys', '/dev', '/home', '/usr', '/usr/bin']) fs.mkdir(directory);
  fs.writeFile('/bin/busybox', 'ELF', { mode: 0o755 });
  for (const applet of APPLET_LINKS) fs.symlink('/bin/busybox', `/bin/${applet}`);
  fs.writeFile('/etc/passwd', 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/home:/bin/false\n');
  fs.writeFile('/etc/group', 'root:x:0:\nnogroup:x:65534:\n');
  return fs;
}
