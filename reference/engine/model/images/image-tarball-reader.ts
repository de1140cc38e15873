/**
 * Reads an image tarball (spec/2 §2.2) as dockerd 20.10's load does: the tar extracted into a
 * directory of files, then `manifest.json` when there is one, else the legacy layout (a directory per
 * v1 layer and `repositories`). What is wrong with a tarball is said in dockerd's words.
 */
import { posix } from 'node:path';
import { readTar } from '../../filesystem/tar-io.ts';
import { InvalidParameterError } from '../common/errors.ts';
import { MANIFEST_FILE, REPOSITORIES_FILE } from './image-tarball-writer.ts';

/** One image of a `manifest.json` (Go's manifestItem): paths are inside the tarball. */
export interface ManifestItem {
  config: string;
  repoTags: string[];
  layers: string[];
  /** the id of its parent image, '' when none */
  parent: string;
}

type TarballFile = { kind: 'file'; data: Buffer } | { kind: 'symlink'; target: string } | { kind: 'directory' };

/** How many symlinks a path may go through, as the kernel's ELOOP bound. */
const SYMLINK_LIMIT = 40;

/** The tarball's members by path, as extracted into a directory (later members replace earlier ones). */
export class TarballFiles {
  private constructor(private readonly files: ReadonlyMap<string, TarballFile>) {}

  /** Throws dockerd's "Error processing tar file" for a body that is not a (gzipped) tar. */
  static async extract(archive: Buffer): Promise<TarballFiles> {
    const files = new Map<string, TarballFile>();
    let members;
    try {
      members = await readTar(archive);
    } catch (error) {
      throw new InvalidParameterError(`Error processing tar file(exit status 1): ${goTarError(error)}`);
    }
    for (const { header, data } of members) {
      const path = cleanPath(header.name);
      if (path === '') continue;
      for (let parent = posix.dirname(path); parent !== '.'; parent = posix.dirname(parent)) {
        if (!files.has(parent)) files.set(parent, { kind: 'directory' });
      }
      if (header.type === 'directory') files.set(path, { kind: 'directory' });
      else if (header.type === 'symlink') files.set(path, { kind: 'symlink', target: header.linkname ?? '' });
      else if (header.type === 'file' || header.type === 'contiguous-file' || header.type === undefined) files.set(path, { kind: 'file', data });
    }
    return new TarballFiles(files);
  }

  has(path: string): boolean {
    return this.resolve(cleanPath(path)) !== undefined;
  }

  /** A file's bytes, through symlinks; throws the open error dockerd gives for a missing one. */
  read(path: string): Buffer {
    const file = this.resolve(cleanPath(path));
    if (file === undefined) throw new InvalidParameterError(`open ${path}: no such file or directory`);
    if (file.kind !== 'file') throw new InvalidParameterError(`read ${path}: is a directory`);
    return file.data;
  }

  /** The directories at the tarball's root, by name (Go's ReadDir order). */
  rootDirectories(): string[] {
    return [...this.files.entries()]
      .filter(([path, file]) => file.kind === 'directory' && !path.includes('/'))
      .map(([path]) => path)
      .sort();
  }

  private resolve(path: string, depth = 0): TarballFile | undefined {
    const file = this.files.get(path);
    if (file?.kind !== 'symlink') return file;
    if (depth >= SYMLINK_LIMIT) return undefined;
    const target = file.target.startsWith('/') ? file.target : posix.join(posix.dirname(path), file.target);
    return this.resolve(cleanPath(target), depth + 1);
  }
}

/** A member's path as a path inside the extraction directory: relative, no `.` or `..` escaping it. */
function cleanPath(name: string): string {
  const normal = posix.normalize(`/${name}`);
  return normal.slice(1).replace(/\/$/, '');
}

/** `manifest.json`'s images, or undefined for a tarball in the legacy layout. */
export function readManifest(files: TarballFiles): ManifestItem[] | undefined {
  if (!files.has(MANIFEST_FILE)) return undefined;
  const value = parseGoJson(files.read(MANIFEST_FILE));
  if (value === null) return [];
  if (!Array.isArray(value)) throw unmarshalError(value, '[]tarexport.manifestItem');
  return value.map((item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw unmarshalError(item, 'tarexport.manifestItem');
    const fields = item as Record<string, unknown>;
    return {
      config: stringField(fields, 'Config'),
      repoTags: stringListField(fields, 'RepoTags'),
      layers: stringListField(fields, 'Layers'),
      parent: stringField(fields, 'Parent'),
    };
  });
}

/** The legacy `repositories` file: repository → tag → v1 id. */
export function readRepositories(files: TarballFiles): Array<{ repository: string; tag: string; v1Id: string }> {
  const value = parseGoJson(files.read(REPOSITORIES_FILE));
  if (value === null) return [];
  if (typeof value !== 'object' || Array.isArray(value)) throw unmarshalError(value, 'map[string]map[string]string');
  return Object.entries(value as Record<string, unknown>).flatMap(([repository, tags]) => {
    if (tags === null) return [];
    if (typeof tags !== 'object' || Array.isArray(tags)) throw unmarshalError(tags, 'map[string]string');
    return Object.entries(tags as Record<string, unknown>).map(([tag, v1Id]) => {
      if (typeof v1Id !== 'string') throw unmarshalError(v1Id, 'string');
      return { repository, tag, v1Id };
    });
  });
}

/** JSON.parse with encoding/json's error messages. */
export function parseGoJson(bytes: Buffer): unknown {
  const text = bytes.toString('utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidParameterError(goSyntaxError(error, text));
  }
}

function goSyntaxError(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(message);
  if (position === null || Number(position[1]) >= text.length) return 'unexpected end of JSON input';
  const character = text[Number(position[1])] ?? '';
  return `invalid character ${JSON.stringify(character).replace(/^"|"$/g, "'")} looking for beginning of value`;
}

function stringField(fields: Record<string, unknown>, name: string): string {
  const value = fields[name];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw unmarshalError(value, 'string', `tarexport.manifestItem.${name}`);
  return value;
}

function stringListField(fields: Record<string, unknown>, name: string): string[] {
  const value = fields[name];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) throw unmarshalError(value, '[]string', `tarexport.manifestItem.${name}`);
  return value as string[];
}

/** encoding/json's UnmarshalTypeError. */
function unmarshalError(value: unknown, goType: string, field?: string): InvalidParameterError {
  const kind = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value === 'boolean' ? 'bool' : typeof value;
  return new InvalidParameterError(`json: cannot unmarshal ${kind} into Go ${field ? `struct field ${field}` : 'value'} of type ${goType}`);
}

/** archive/tar's words for what tar-stream or zlib found wrong. */
function goTarError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/unexpected end/i.test(message)) return 'unexpected EOF';
  if (/invalid tar header/i.test(message)) return 'archive/tar: invalid tar header';
  return message;
}
