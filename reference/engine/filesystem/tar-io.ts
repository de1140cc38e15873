/**
 * Tars in and out of memory with tar-stream. Written tars are deterministic: only the header fields
 * given here are set (no user or group names, no access times), so the same members give the same
 * bytes.
 */
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import tar, { type Header } from 'tar-stream';
import type { VisibleEntry } from './layer-entry.ts';

/** What a member's header may say; only the name is required. */
export type MemberHeader = Partial<Header> & Pick<Header, 'name'>;

export interface TarMember {
  header: MemberHeader;
  data: Buffer;
}

/** tar-stream's words for a header it cannot read (image-import.ts gives them in Go's). */
const INVALID_HEADER = 'Invalid tar header. Maybe the tar is corrupted or it needs to be gunzipped?';

/** gzip's magic number: a compressed tar is read too, as dockerd's DecompressStream reads it. */
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

/**
 * The most a compressed tar may expand to (README, Limits): a few KiB of gzip can say gigabytes of
 * zeros, and the tar is held in memory. Past it zlib throws ERR_BUFFER_TOO_LARGE.
 */
export const MAX_UNCOMPRESSED_BYTES = 1024 ** 3;

/** The tar itself, gunzipped when it is compressed; throws zlib's error on a bad gzip stream. */
export function plainTar(archive: Buffer): Buffer {
  return archive.subarray(0, GZIP_MAGIC.length).equals(GZIP_MAGIC) ? gunzipSync(archive, { maxOutputLength: MAX_UNCOMPRESSED_BYTES }) : archive;
}

/** Every member of a tar, plain or gzipped, in order. A malformed one rejects with tar-stream's or zlib's error. */
export async function readTar(archive: Buffer): Promise<TarMember[]> {
  const members: TarMember[] = [];
  const extract = tar.extract();
  Readable.from([plainTar(archive)]).pipe(extract);
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
