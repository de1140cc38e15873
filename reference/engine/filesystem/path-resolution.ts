/**
 * Path resolution over the merged view, as the kernel does it inside a chroot: symlinks followed
 * (absolute targets from the scope's root, relative ones from the link's directory), `..` never
 * climbing above the scope's root, at most MAX_SYMLINKS links per resolution.
 *
 * The scope's root is `/` for a container's processes. Archive extraction resolves inside the
 * destination directory (dockerd untars in a chroot there), and dockerd's FollowSymlinkInScope keeps
 * going past missing components (`lenient`): both are options here.
 */
import { FilesystemError } from './container-filesystem.ts';
import { MAX_SYMLINKS, SymlinkLoopError } from './filesystem-errors.ts';
import { joinParts, pathParts } from './layer-paths.ts';
import type { Located } from './layer-index.ts';
import type { MergedView } from './merged-view.ts';

export interface ResolveOptions {
  /** follow a symlink in the last component too (stat) or not (lstat, unlink, mkdir) */
  followLast: boolean;
  /** the directory that stands for `/` (default `/`) */
  root?: string;
  /** a missing component is kept and resolution goes on (FollowSymlinkInScope) instead of ENOENT */
  lenient?: boolean;
}

export interface Resolution {
  /** the physical path the given one leads to */
  path: string;
  /** what is there; undefined when the last component (or, lenient, any component) is missing */
  located: Located | undefined;
}

/**
 * @throws FilesystemError ENOENT (a missing directory on the way), ENOTDIR (a non-directory on the
 * way), SymlinkLoopError
 */
export function resolvePath(view: MergedView, path: string, options: ResolveOptions): Resolution {
  const rootParts = pathParts(options.root ?? '/');
  const rootLocated = view.lookup(joinParts(rootParts));
  const parts = [...rootParts];
  // what is at each depth beyond the root: popped by `..`, reset by an absolute link
  const trail: Array<Located | undefined> = [rootLocated];
  const pending = pathParts(path).reverse();
  let links = 0;
  while (pending.length > 0) {
    const part = pending.pop() as string;
    if (part === '.') continue;
    if (part === '..') {
      if (parts.length > rootParts.length) {
        parts.pop();
        trail.pop();
      }
      continue;
    }
    const current = trail[trail.length - 1];
    const isLast = pending.length === 0;
    if (current === undefined) {
      // lenient only: under a missing component nothing exists either
      parts.push(part);
      trail.push(undefined);
      continue;
    }
    if (current.entry.kind !== 'directory') throw new FilesystemError('ENOTDIR', path);
    const next = view.child(current, part);
    if (next === undefined) {
      if (!isLast && !options.lenient) throw new FilesystemError('ENOENT', path);
      parts.push(part);
      trail.push(undefined);
      continue;
    }
    if (next.entry.kind === 'symlink' && (!isLast || options.followLast)) {
      links += 1;
      if (links > MAX_SYMLINKS) throw new SymlinkLoopError(path);
      if (next.entry.target.startsWith('/')) {
        parts.splice(rootParts.length);
        trail.splice(1);
      }
      pending.push(...pathParts(next.entry.target).reverse());
      continue;
    }
    parts.push(part);
    trail.push(next);
  }
  return { path: joinParts(parts), located: trail[trail.length - 1] };
}
