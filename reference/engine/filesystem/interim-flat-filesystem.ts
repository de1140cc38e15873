/**
 * INTERIM, to be deleted when the layered filesystem (LayeredFilesystem) lands: one flat map of
 * paths, with the fixture busybox layout, so that containers can run meanwhile. No layers, hence no
 * changes or sizes.
 */
import { posix } from 'node:path';
import { BUSYBOX_APPLETS } from '../../../fixtures/busybox-rootfs.ts';
import { FilesystemError, type ContainerFilesystem, type EntryKind, type EntryStat } from './container-filesystem.ts';

interface Node {
  kind: EntryKind;
  mode: number;
  mtime: Date;
  data: Buffer;
  target: string;
}

const TYPE_BITS: Record<EntryKind, number> = { directory: 0x80000000, symlink: 0x08000000, file: 0 };

export class InterimFlatFilesystem implements ContainerFilesystem {
  private readonly nodes = new Map<string, Node>([['/', { kind: 'directory', mode: 0o755, mtime: new Date(0), data: Buffer.alloc(0), target: '' }]]);

  stat(path: string): EntryStat | undefined {
    return this.describe(this.resolve(path, true));
  }

  lstat(path: string): EntryStat | undefined {
    return this.describe(this.resolve(path, false));
  }

  readFile(path: string): Buffer {
    const node = this.node(this.resolve(path, true), path);
    if (node.kind === 'directory') throw new FilesystemError('EISDIR', path);
    return Buffer.from(node.data);
  }

  writeFile(path: string, data: Buffer | string, options: { append?: boolean; mode?: number } = {}): void {
    const at = this.resolve(path, true) ?? this.childPath(path);
    const existing = this.nodes.get(at);
    if (existing?.kind === 'directory') throw new FilesystemError('EISDIR', path);
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    const content = options.append && existing ? Buffer.concat([existing.data, bytes]) : bytes;
    this.nodes.set(at, { kind: 'file', mode: existing?.mode ?? options.mode ?? 0o644, mtime: new Date(), data: content, target: '' });
  }

  mkdir(path: string, options: { parents?: boolean; mode?: number } = {}): void {
    const existing = this.stat(path);
    if (existing) {
      if (options.parents && existing.kind === 'directory') return;
      throw new FilesystemError('EEXIST', path);
    }
    if (options.parents && !this.stat(posix.dirname(path))) this.mkdir(posix.dirname(path), options);
    this.nodes.set(this.childPath(path), { kind: 'directory', mode: options.mode ?? 0o755, mtime: new Date(), data: Buffer.alloc(0), target: '' });
  }

  list(path: string): string[] {
    const at = this.resolve(path, true);
    if (this.node(at, path).kind !== 'directory') throw new FilesystemError('ENOTDIR', path);
    const prefix = at === '/' ? '/' : `${at}/`;
    return [...this.nodes.keys()].filter((key) => key !== '/' && key.startsWith(prefix) && !key.slice(prefix.length).includes('/')).map((key) => key.slice(prefix.length)).sort();
  }

  remove(path: string, options: { recursive?: boolean; force?: boolean } = {}): void {
    const at = this.resolve(posix.dirname(path), true);
    const target = at === undefined ? undefined : posix.join(at, posix.basename(path));
    const node = target === undefined ? undefined : this.nodes.get(target);
    if (node === undefined || target === undefined) {
      if (options.force) return;
      throw new FilesystemError('ENOENT', path);
    }
    const inside = [...this.nodes.keys()].filter((key) => key.startsWith(`${target}/`));
    if (inside.length > 0 && !options.recursive) throw new FilesystemError('ENOTEMPTY', path);
    for (const key of [target, ...inside]) this.nodes.delete(key);
  }

  symlink(target: string, path: string): void {
    if (this.lstat(path)) throw new FilesystemError('EEXIST', path);
    this.nodes.set(this.childPath(path), { kind: 'symlink', mode: 0o777, mtime: new Date(), data: Buffer.alloc(0), target });
  }

  /** Where a new entry `path` goes: its parent directory must exist. */
  private childPath(path: string): string {
    const parent = this.resolve(posix.dirname(path), true);
    if (this.node(parent, path).kind !== 'directory') throw new FilesystemError('ENOTDIR', path);
    return posix.join(parent as string, posix.basename(path));
  }

  private node(resolved: string | undefined, path: string): Node {
    const node = resolved === undefined ? undefined : this.nodes.get(resolved);
    if (node === undefined) throw new FilesystemError('ENOENT', path);
    return node;
  }

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

  private describe(resolved: string | undefined): EntryStat | undefined {
    const node = resolved === undefined ? undefined : this.nodes.get(resolved);
    if (node === undefined || resolved === undefined) return undefined;
    return { name: posix.basename(resolved) || '/', kind: node.kind, mode: (TYPE_BITS[node.kind] | node.mode) >>> 0, size: node.data.length, mtime: node.mtime, linkTarget: node.target };
  }
}

/** The fixture busybox image's layout. */
export function interimBusyboxFilesystem(): ContainerFilesystem {
  const fs = new InterimFlatFilesystem();
  for (const directory of ['/bin', '/etc', '/tmp', '/root', '/proc', '/sys', '/dev']) fs.mkdir(directory);
  fs.writeFile('/bin/busybox', '', { mode: 0o755 });
  for (const applet of BUSYBOX_APPLETS) fs.symlink('/bin/busybox', `/bin/${applet}`);
  fs.writeFile('/etc/passwd', 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n');
  fs.writeFile('/etc/group', 'root:x:0:\nnogroup:x:65534:\n');
  return fs;
}
