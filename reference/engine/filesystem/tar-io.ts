/**
 * Tars in and out of memory with tar-stream. Written tars are deterministic: only the header fields
 * given here are set (no user or group names, no access times), so the same members give the same
 * bytes.
 */
import { Readable } from 'node:stream';
import tar, { type Header } from 'tar-stream';
import { decompress } from './archive-decompression.ts';
import type { VisibleEntry } from './layer-entry.ts';

/** What a member's header may say; only the name is required. */
export type MemberHeader = Partial<Header> & Pick<Header, 'name'>;

export interface TarMember {
  header: MemberHeader;
  data: Buffer;
}

/** tar-stream's words for a header it cannot read (image-import.ts gives them in Go's). */
const INVALID_HEADER = 'Invalid tar header. Maybe the tar is corrupted or it needs to be gunzipped?';

/** Every member of a tar, plain or compressed (gzip, bzip2, xz), in order. A malformed one rejects with tar-stream's or the decompression's error. */
export async function readTar(archive: Buffer): Promise<TarMember[]> {
  const members: TarMember[] = [];
  const extract = tar.extract();
  Readable.from([await decompress(archive)]).pipe(extract);
  for await (const entry of extract) {
    // tar-stream reads a size field it cannot decode as null and then waits forever for the member's data.
    if (!Number.isSafeInteger(entry.header.size) || (entry.header.size ?? -1) < 0) throw new Error(INVALID_HEADER);
    // A directory carries no data, whatever its size field says (Go's archive/tar reads it as header-only);
    // tar-stream never ends such an entry's stream, so it is not read.
    if (entry.header.type === 'directory') {
      members.push({ header: entry.header, data: Buffer.alloc(0) });
      continue;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    members.push({ header: entry.header, data: Buffer.concat(chunks) });
  }
  return members;
}

export async function writeTar(members: Iterable<TarMember>): Promise<Buffer> {
  const pack = tar.pack();
  const collected = (async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of pack) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  })();
  for (const { header, data } of members) {
    await new Promise<void>((resolve, reject) => {
      pack.entry(header, data, (error) => (error ? reject(error) : resolve()));
    });
  }
  pack.finalize();
  return collected;
}

/** The member for an entry under `name` (a directory's name gets its trailing `/`, as Go's archive/tar writes it). */
export function memberOf(name: string, entry: VisibleEntry): TarMember {
  const owner = { mode: entry.mode & 0o7777, uid: entry.uid, gid: entry.gid, mtime: entry.mtime };
  switch (entry.kind) {
    case 'directory':
      return { header: { ...owner, name: name.endsWith('/') ? name : `${name}/`, type: 'directory', size: 0 }, data: Buffer.alloc(0) };
    case 'symlink':
      return { header: { ...owner, name, type: 'symlink', size: 0, linkname: entry.target }, data: Buffer.alloc(0) };
    case 'file':
      return { header: { ...owner, name, type: 'file', size: entry.data.length }, data: entry.data };
  }
}
