/** Test helpers: build contexts as tars, a build run on a model with its output recorded. */
import { execFileSync } from 'node:child_process';
import { BuildContext } from '../../../reference/engine/builder/build-context.ts';
import type { BuildOutput } from '../../../reference/engine/builder/build-output.ts';
import { buildfileFromContext } from '../../../reference/engine/builder/buildfile-source.ts';
import type { Downloader } from '../../../reference/engine/builder/copy-sources.ts';
import { buildImage, type BuildOptions } from '../../../reference/engine/model/builds/image-builder.ts';
import { LayeredFilesystem } from '../../../reference/engine/filesystem/layered-filesystem.ts';
import { writeTar } from '../../../reference/engine/filesystem/tar-io.ts';
import type { EngineModel } from '../../../reference/engine/model/engine-model.ts';
import type { Image } from '../../../reference/engine/model/images/image.ts';

/** File contents by path; a path ending in `/` is a directory, a value starting `->` a symlink. */
export type ContextFiles = Record<string, string | Buffer>;

export function contextTar(files: ContextFiles): Promise<Buffer> {
  const mtime = new Date('2020-01-01T00:00:00Z');
  return writeTar(
    Object.entries(files).map(([name, content]) => {
      if (name.endsWith('/')) return { header: { name, type: 'directory', mode: 0o755, mtime }, data: Buffer.alloc(0) };
      if (typeof content === 'string' && content.startsWith('->')) return { header: { name, type: 'symlink', linkname: content.slice(2), mode: 0o777, mtime }, data: Buffer.alloc(0) };
      return { header: { name, type: 'file', mode: 0o644, mtime }, data: Buffer.from(content) };
    }),
  );
}

/** The bytes compressed by the system's program (`gzip`, `bzip2`, `xz`), as a client would send them. */
export function compressedWith(program: 'gzip' | 'bzip2' | 'xz', bytes: Buffer): Buffer {
  return execFileSync(program, ['-c'], { input: bytes });
}

export function hasProgram(program: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`]);
    return true;
  } catch {
    return false;
  }
}

/** What a build said, message by message; stderr marked. */
export class RecordedOutput implements BuildOutput {
  readonly messages: string[] = [];

  stdout(text: string): void {
    this.messages.push(text);
  }

  stderr(text: string): void {
    this.messages.push(`[stderr]${text}`);
  }

  progress(id: string, action: string, current: number, total: number): void {
    this.messages.push(`[progress ${id}|${action}|${current}/${total}]`);
  }

  /** The messages joined, as a client prints them. */
  get text(): string {
    return this.messages.join('');
  }
}

export interface BuildRun {
  image: Image;
  output: RecordedOutput;
}

const noDownloads: Downloader = (url) => Promise.reject(new Error(`no download expected: ${url}`));

/** Builds `Dockerfile` (and `files`) on the model; rejects with the build's error, its output attached. */
export async function runBuild(model: EngineModel, dockerfile: string, files: ContextFiles = {}, options: Partial<BuildOptions> = {}): Promise<BuildRun> {
  const context = await BuildContext.fromArchive(await contextTar({ Dockerfile: dockerfile, ...files }));
  const { plan, escape } = buildfileFromContext(context, '', 'Dockerfile');
  const output = new RecordedOutput();
  const settings: BuildOptions = {
    context,
    plan,
    escape,
    tags: [],
    noCache: false,
    pull: false,
    remove: true,
    forceRemove: false,
    buildArgs: new Map(),
    labels: {},
    resources: {},
    download: noDownloads,
    ...options,
  };
  try {
    return { image: await buildImage(model, settings, output), output };
  } catch (error) {
    throw Object.assign(error as Error, { output });
  }
}

/** The build's failure and what it had said until then. */
export async function failedBuild(model: EngineModel, dockerfile: string, files: ContextFiles = {}, options: Partial<BuildOptions> = {}): Promise<{ error: Error; output: RecordedOutput }> {
  try {
    await runBuild(model, dockerfile, files, options);
  } catch (error) {
    return { error: error as Error, output: (error as { output: RecordedOutput }).output };
  }
  throw new Error('the build succeeded');
}

/** An image's filesystem, to look at. */
export function filesystemOf(image: Image): LayeredFilesystem {
  return new LayeredFilesystem(image.layers);
}
