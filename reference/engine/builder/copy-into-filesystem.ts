/**
 * COPY and ADD putting their sources into the step's filesystem, with dockerd's destination rules
 * (performCopyForInfo): a directory's contents go into the destination directory (made as needed);
 * a file goes to the destination itself, or into it when the destination ends with `/` or is an
 * existing directory; ADD unpacks a local tar archive (plain, gzip, bzip2 or xz) into the
 * destination directory instead, keeping the archive's owners. Everything else copied belongs to
 * root and keeps its mode and modification time. Writing goes through the archive extraction the
 * containers' `PUT /archive` uses, so symlinks on the destination path resolve the same way.
 */
import { posix } from 'node:path';
import { extractToContainerDirectory } from '../filesystem/container-archive.ts';
import type { VisibleEntry } from '../filesystem/layer-entry.ts';
import type { LayeredFilesystem } from '../filesystem/layered-filesystem.ts';
import { memberOf, readTar, writeTar, type TarMember } from '../filesystem/tar-io.ts';
import { decompress } from '../filesystem/archive-decompression.ts';
import type { BuildContext } from './build-context.ts';
import type { CopySource } from './copy-sources.ts';

export interface CopyOptions {
  /** ADD: local tar archives are unpacked */
  unpackArchives: boolean;
}

/** @param dest absolute, its trailing `/` kept */
export async function copyIntoFilesystem(fs: LayeredFilesystem, context: BuildContext, sources: readonly CopySource[], dest: string, options: CopyOptions): Promise<void> {
  for (const source of sources) {
    if (source.origin === 'context' && source.located.entry.kind === 'directory') {
      fs.mkdir(dest, { parents: true });
      const members: TarMember[] = [];
      context.walk(source.located, (located, relative) => {
        if (relative !== '') members.push(rootOwned(posix.join(dest, relative), located.entry));
      });
      await extractAtRoot(fs, members);
      continue;
    }
    const file = source.origin === 'context' ? source.located.entry : source.file;
    const archive = options.unpackArchives && source.origin === 'context' && file.kind === 'file' ? await tarOf(file.data) : undefined;
    if (archive !== undefined) {
      fs.mkdir(dest, { parents: true });
      await extractToContainerDirectory(fs, dest, archive, {});
      continue;
    }
    const intoDirectory = dest.endsWith('/') || fs.stat(dest)?.kind === 'directory';
    await extractAtRoot(fs, [rootOwned(intoDirectory ? posix.join(dest, source.name) : dest, file)]);
  }
}

function rootOwned(path: string, entry: VisibleEntry): TarMember {
  return memberOf(path.replace(/^\/+/, ''), { ...entry, uid: 0, gid: 0 });
}

async function extractAtRoot(fs: LayeredFilesystem, members: TarMember[]): Promise<void> {
  await extractToContainerDirectory(fs, '/', await writeTar(members), {});
}

/** The bytes as a plain tar when they are a tar archive, compressed or not (dockerd reads its first header). */
async function tarOf(data: Buffer): Promise<Buffer | undefined> {
  try {
    const tar = await decompress(data);
    return (await readTar(tar)).length > 0 ? tar : undefined;
  } catch {
    return undefined;
  }
}
