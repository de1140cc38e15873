/**
 * What a COPY or ADD copies, found as dockerd's copier finds it (builder/dockerfile/copy.go): each
 * source is a path in the context (a leading `/` or `./` is the context's root), or, with `*`, `?`
 * or `[` in it, every context path the pattern matches (Go's filepath.Match, element by element);
 * ADD also takes http(s) URLs, fetched when the step runs. Each source has the hash its cache key
 * carries: `file:…` or `dir:…` of its contents (names, modes, owners and bytes, never times), the
 * bare digest of a download; several sources hash together as `multi:…`.
 */
import { createHash } from 'node:crypto';
import type { FileEntry, VisibleEntry } from '../filesystem/layer-entry.ts';
import type { Located } from '../filesystem/layer-index.ts';
import { EngineError } from '../model/common/errors.ts';
import type { BuildContext } from './build-context.ts';
import { globRegExp } from './path-glob.ts';

export type CopySource = { hash: string; name: string } & ({ origin: 'context'; located: Located } | { origin: 'url'; file: FileEntry });

/** A download for ADD: the body and what the answer says of it. */
export interface Download {
  data: Buffer;
  /** Last-Modified, when the server sent one */
  lastModified?: Date;
}

/** Fetches an ADD source; rejects with the engine's wording of what went wrong. */
export type Downloader = (url: string) => Promise<Download>;

export class CopySourceError extends EngineError {
  override name = 'CopySourceError';
}

export function isUrl(source: string): boolean {
  return /^https?:\/\//.test(source);
}

/** The sources a context path or pattern names. */
export function contextSources(context: BuildContext, source: string): CopySource[] {
  const path = source.length > 1 ? source.replace(/^\/+/, '').replace(/^\.\//, '') : source;
  if (/[*?[]/.test(path)) return matchingSources(context, path);
  if (!context.present) throw new CopySourceError('missing build context');
  const located = context.locate(path);
  if (located === undefined) throw new CopySourceError(`file not found in build context or excluded by .dockerignore: stat ${path}: file does not exist`);
  return [contextSource(context, located, path)];
}

function matchingSources(context: BuildContext, pattern: string): CopySource[] {
  const root = context.root();
  if (root === undefined) throw new CopySourceError('missing build context');
  const matcher = globRegExp(pattern, { doubleStar: false });
  const sources: CopySource[] = [];
  context.walk(root, (located, relative) => {
    if (relative !== '' && matcher.test(relative)) sources.push(contextSource(context, context.locate(relative) ?? located, relative));
  });
  return sources;
}

function contextSource(context: BuildContext, located: Located, path: string): CopySource {
  const name = path.split('/').filter((part) => part !== '' && part !== '.').at(-1) ?? '.';
  if (located.entry.kind !== 'directory') return { origin: 'context', located, name, hash: `file:${entryHash(located.entry)}` };
  const digest = createHash('sha256');
  context.walk(located, (child, relative) => digest.update(`${relative}\0${entryHash(child.entry)}\0`));
  return { origin: 'context', located, name, hash: `dir:${digest.digest('hex')}` };
}

/** ADD of a URL: the file is named after the URL's last path element, and is readable by root only. */
export async function downloadedSource(url: string, download: Downloader, now: Date): Promise<CopySource> {
  const { data, lastModified } = await download(url);
  const name = new URL(url).pathname.split('/').at(-1) ?? '';
  const file: FileEntry = { kind: 'file', mode: 0o600, uid: 0, gid: 0, mtime: lastModified ?? now, data };
  return { origin: 'url', file, name, hash: createHash('sha256').update(data).digest('hex') };
}

/** The hash of several sources: the one source's own, or `multi:` of them all. */
export function sourcesHash(sources: readonly CopySource[]): string {
  if (sources.length === 1) return (sources[0] as CopySource).hash;
  return `multi:${createHash('sha256')
    .update(sources.map((source) => source.hash).join(','))
    .digest('hex')}`;
}

function entryHash(entry: VisibleEntry): string {
  const digest = createHash('sha256').update(`${entry.kind}\0${entry.mode}\0${entry.uid}\0${entry.gid}\0`);
  if (entry.kind === 'file') digest.update(entry.data);
  if (entry.kind === 'symlink') digest.update(entry.target);
  return digest.digest('hex');
}
