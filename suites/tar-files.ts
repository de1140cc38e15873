/**
 * Tar archives as the checks read and write them (archive bodies, image tarballs, build contexts),
 * with tar-stream. An answer that should be a tar and is not is the target's fault.
 */
import tar from 'tar-stream';
import { NonConformingResponse, type ApiResponse } from '../harness/client/api-response.ts';

export interface TarEntry {
  name: string;
  type: string;
  size: number;
  mode: number;
  linkname: string;
  data: Buffer;
}

export type TarSource =
  | { kind: 'file'; name: string; data: string | Buffer }
  | { kind: 'directory'; name: string }
  | { kind: 'symlink'; name: string; target: string };

/** The permission bits buildTar gives each kind of entry. */
export const TAR_MODES: Record<TarSource['kind'], number> = { file: 0o644, directory: 0o755, symlink: 0o777 };

/** The entries of a tar; `what` names where it came from when it is not one. */
export async function tarEntries(bytes: Buffer, what: string): Promise<TarEntry[]> {
  const extract = tar.extract();
  const entries: TarEntry[] = [];
  const reading = (async () => {
    for await (const entry of extract) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      const { name, type, size, mode, linkname } = entry.header;
      // Go's archive/tar writes the type bits into the mode field too (040755): only the permissions count
      entries.push({ name, type: type ?? 'file', size: size ?? 0, mode: (mode ?? 0) & 0o7777, linkname: linkname ?? '', data: Buffer.concat(chunks) });
    }
  })();
  extract.end(bytes);
  try {
    await reading;
  } catch (error) {
    throw new NonConformingResponse(`${what} is not a tar archive: ${(error as Error).message}`);
  }
  return entries;
}

/** The entries of a tar body. */
export function readTar(res: ApiResponse): Promise<TarEntry[]> {
  return tarEntries(res.body, `the body of ${res.describe()}`);
}

/** An uncompressed tar of the given entries, in order. */
export async function buildTar(sources: TarSource[]): Promise<Buffer> {
  const pack = tar.pack();
  const collected = (async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of pack) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  })();
  const mtime = new Date();
  for (const source of sources) {
    const header = { name: source.name, mode: TAR_MODES[source.kind], mtime };
    if (source.kind === 'file') pack.entry(header, source.data);
    else if (source.kind === 'directory') pack.entry({ ...header, type: 'directory' });
    else pack.entry({ ...header, type: 'symlink', linkname: source.target });
  }
  pack.finalize();
  return collected;
}

/** An entry name as a path relative to the top of the archive: `./passwd` and `passwd/` read as `passwd`. */
export function relativeName(name: string): string {
  return name.replace(/^\.\//, '').replace(/\/$/, '');
}
