/**
 * A layer as `layer.tar` (spec/2 §2.2): the layer's entries, deletions as aufs-style whiteouts — an
 * empty `.wh.<name>` file next to the deleted name, and `.wh..wh..opq` inside a directory that hides
 * everything below it. Writing is deterministic: parents before children, siblings bytewise
 * (whiteouts by the name they delete), whiteouts owned by root with mtime 0.
 */
import { posix } from 'node:path';
import { EPOCH, IMPLICIT_DIRECTORY, type LayerEntry, type VisibleEntry } from './layer-entry.ts';
import { LayerIndex } from './layer-index.ts';
import { childPath, layerPathOfMember, parentPath } from './layer-paths.ts';
import { Layer, type LayerOptions } from './layer.ts';
import { decompress } from './archive-decompression.ts';
import { memberOf, readTar, writeTar, type MemberHeader, type TarMember } from './tar-io.ts';

export const WHITEOUT_PREFIX = '.wh.';
/** aufs's own files (`.wh..wh.plnk`, `.wh..wh.aufs`, and the opaque marker) start with this */
export const WHITEOUT_META_PREFIX = '.wh..wh.';
export const WHITEOUT_OPAQUE_DIR = '.wh..wh..opq';

const WHITEOUT: LayerEntry = { kind: 'whiteout' };

/**
 * The tar each layer read by layerFromTar came from. dockerd keeps a layer's tar headers (tar-split)
 * and gives back the very bytes it registered, so a loaded or imported layer keeps its diff id: the
 * sha256 of those bytes, which its image's config document names.
 */
const sourceTars = new WeakMap<Layer, Buffer>();

export async function layerToTar(layer: Layer): Promise<Buffer> {
  const source = sourceTars.get(layer);
  if (source !== undefined) return source;
  const members: TarMember[] = [];
  for (const [path, entry] of layer.entries()) {
    const name = path === '/' ? './' : path.slice(1);
    if (entry.kind === 'whiteout') {
      members.push(marker(posix.join(posix.dirname(name), `${WHITEOUT_PREFIX}${posix.basename(name)}`), { mode: 0, uid: 0, gid: 0 }));
      continue;
    }
    members.push(memberOf(name, entry));
    // the marker inherits the directory's owner and permissions, as dockerd's overlay converter writes it
    if (entry.kind === 'directory' && entry.opaque) members.push(marker(posix.join(name, WHITEOUT_OPAQUE_DIR), { mode: entry.mode & 0o777, uid: entry.uid, gid: entry.gid }));
  }
  return writeTar(members);
}

function marker(name: string, owner: { mode: number; uid: number; gid: number }): TarMember {
  return { header: { ...owner, name, type: 'file', size: 0, mtime: EPOCH }, data: Buffer.alloc(0) };
}

/**
 * Reads a layer tar (plain or compressed). Device nodes and FIFOs are skipped (the model has none); a
 * hard link becomes a copy of its target, which must come earlier in the same tar. layerToTar gives
 * the layer back as these bytes (uncompressed).
 */
export async function layerFromTar(archive: Buffer, options: LayerOptions = {}): Promise<Layer> {
  const index = new LayerIndex();
  const opaque = new Set<string>();
  const tar = await decompress(archive);
  for (const { header, data } of await readTar(tar)) {
    const path = layerPathOfMember(header.name);
    const name = posix.basename(path);
    if (name === WHITEOUT_OPAQUE_DIR) opaque.add(parentPath(path));
    else if (name.startsWith(WHITEOUT_META_PREFIX)) continue;
    else if (name.startsWith(WHITEOUT_PREFIX)) index.set(childPath(parentPath(path), name.slice(WHITEOUT_PREFIX.length)), WHITEOUT);
    else {
      const entry = entryOf(header, data, index);
      if (entry !== undefined) index.set(path, entry);
    }
  }
  // the marker may come before or after its directory's own member, or without one
  for (const path of opaque) {
    const existing = index.get(path);
    index.set(path, { ...(existing?.kind === 'directory' ? existing : IMPLICIT_DIRECTORY), opaque: true });
  }
  const layer = new Layer(index, options);
  sourceTars.set(layer, tar);
  return layer;
}

function entryOf(header: MemberHeader, data: Buffer, index: LayerIndex): VisibleEntry | undefined {
  const owner = { mode: (header.mode ?? 0) & 0o7777, uid: header.uid ?? 0, gid: header.gid ?? 0, mtime: header.mtime ?? EPOCH };
  switch (header.type) {
    case 'file':
    case 'contiguous-file':
    case undefined:
      return { ...owner, kind: 'file', data };
    case 'directory':
      return { ...owner, kind: 'directory', opaque: false };
    case 'symlink':
      return { ...owner, kind: 'symlink', target: header.linkname ?? '' };
    case 'link': {
      const target = index.get(layerPathOfMember(header.linkname ?? ''));
      if (target === undefined || target.kind === 'whiteout' || target.kind === 'directory') {
        throw new Error(`layer tar: hard link ${header.name} to ${header.linkname ?? ''}, which is not a file earlier in the tar`);
      }
      return target;
    }
    default:
      return undefined;
  }
}
