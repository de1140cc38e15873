/**
 * The build context (plain or compressed tars, paths kept inside it, `.dockerignore`) and COPY and
 * ADD with dockerd's path rules: destinations, directories copied by content, wildcards, local
 * archives unpacked by ADD in every compression, URLs downloaded.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { compressionOf } from '../../../reference/engine/filesystem/archive-decompression.ts';
import { BuildContext, OutsideContextError } from '../../../reference/engine/builder/build-context.ts';
import { buildfileFromContext } from '../../../reference/engine/builder/buildfile-source.ts';
import { EngineModel } from '../../../reference/engine/model/engine-model.ts';
import { compressedWith, contextTar, failedBuild, filesystemOf, hasProgram, runBuild } from './build-fixtures.ts';

let model: EngineModel;

beforeEach(() => {
  model = new EngineModel();
});

const COMPRESSIONS = (['gzip', 'bzip2', 'xz'] as const).filter(hasProgram);

describe('the context', () => {
  test.each(COMPRESSIONS)('a %s-compressed tar is told by its magic bytes and read', async (program) => {
    const archive = compressedWith(program, await contextTar({ 'dir/': '', 'dir/f': 'content' }));
    expect(compressionOf(archive)).toBe(program);
    const context = await BuildContext.fromArchive(archive);
    expect(context.readFile('dir/f')?.toString()).toBe('content');
  });

  test('paths are taken from the context root, symlinks followed inside it; `..` out of it is refused', async () => {
    const context = await BuildContext.fromArchive(await contextTar({ 'a/': '', 'a/f': 'x', link: '->/a/f', up: '->../../a' }));
    expect(context.readFile('/a/f')?.toString()).toBe('x');
    expect(context.readFile('./link')?.toString()).toBe('x');
    expect(context.locate('up')?.entry.kind).toBe('directory');
    expect(() => context.locate('../a/f')).toThrow(new OutsideContextError('../a/f'));
  });

  test('the build file: the default name, its lowercase form, a path in the context; a missing or empty one is refused', async () => {
    const read = async (files: Record<string, string>, path = '') => buildfileFromContext(await BuildContext.fromArchive(await contextTar(files)), path, 'Dockerfile');
    expect((await read({ dockerfile: 'FROM busybox' })).plan.stages).toHaveLength(1);
    expect((await read({ 'sub/My.file': 'FROM busybox' }, 'sub/My.file')).plan.stages).toHaveLength(1);
    await expect(read({ other: 'x' })).rejects.toThrow('Cannot locate specified Dockerfile: Dockerfile');
    await expect(read({ Dockerfile: '' })).rejects.toThrow('the Dockerfile (Dockerfile) cannot be empty');
    await expect(read({ Dockerfile: '# nothing' })).rejects.toThrow('failed to parse Dockerfile: file with no instructions');
  });

  test('.dockerignore takes the build file and itself out of the context when it names them, and nothing else', async () => {
    const { image } = await runBuild(model, 'FROM busybox\nCOPY . /c/\n', { '.dockerignore': 'Dockerfile\n.dockerignore\nkept\n', kept: 'k' });
    expect(filesystemOf(image).list('/c')).toEqual(['kept']);
  });
});

describe('COPY', () => {
  const files = { 'a.txt': 'A', 'a2.txt': 'A2', 'dir/': '', 'dir/b.txt': 'B', 'dir/sub/': '', 'dir/sub/c.txt': 'C' };

  test("dockerd's destination rules", async () => {
    const dockerfile = [
      'FROM busybox',
      'COPY a.txt /one',
      'COPY a.txt /d1/',
      'COPY dir /d2',
      'COPY dir/ /d3/',
      'COPY a*.txt /d4/',
      'COPY a.txt dir /d5/',
      'COPY ["a.txt", "/tmp"]',
      'WORKDIR /w',
      'COPY a.txt rel',
      'COPY a.txt .',
    ].join('\n');
    const { image } = await runBuild(model, dockerfile, files);
    const fs = filesystemOf(image);
    expect(fs.readFile('/one').toString()).toBe('A');
    expect(fs.list('/d1')).toEqual(['a.txt']);
    expect(fs.list('/d2')).toEqual(['b.txt', 'sub']);
    expect(fs.readFile('/d2/sub/c.txt').toString()).toBe('C');
    expect(fs.list('/d3')).toEqual(['b.txt', 'sub']);
    expect(fs.list('/d4')).toEqual(['a.txt', 'a2.txt']);
    expect(fs.list('/d5')).toEqual(['a.txt', 'b.txt', 'sub']);
    expect(fs.readFile('/tmp/a.txt').toString()).toBe('A');
    expect(fs.list('/w')).toEqual(['a.txt', 'rel']);
  });

  test('copied files belong to root and keep their mode; the history names the content hash', async () => {
    const { image } = await runBuild(model, 'FROM busybox\nCOPY a.txt /one\nCOPY dir /d\nCOPY a.txt a2.txt /m/\n', files);
    expect(filesystemOf(image).stat('/one')).toMatchObject({ kind: 'file', size: 1 });
    const comments = image.history.slice(-3).map((entry) => entry.createdBy);
    expect(comments[0]).toMatch(/^\/bin\/sh -c #\(nop\) COPY file:[0-9a-f]{64} in \/one $/);
    expect(comments[1]).toMatch(/^\/bin\/sh -c #\(nop\) COPY dir:[0-9a-f]{64} in \/d $/);
    expect(comments[2]).toMatch(/^\/bin\/sh -c #\(nop\) COPY multi:[0-9a-f]{64} in \/m\/ $/);
  });

  test.each([
    ['COPY nope /x', 'COPY failed: file not found in build context or excluded by .dockerignore: stat nope: file does not exist'],
    ['COPY a.txt a2.txt /x', 'When using COPY with more than one source file, the destination must be a directory and end with a /'],
    ['COPY ../a.txt /x', 'COPY failed: forbidden path outside the build context: ../a.txt ()'],
    ['COPY nomatch* /x/', 'COPY failed: no source files were specified'],
    ['COPY http://example.test/f /x', "COPY failed: source can't be a URL for COPY"],
  ])('%s fails: %s', async (line, message) => {
    expect((await failedBuild(model, `FROM busybox\n${line}\n`, files)).error.message).toBe(message);
  });
});

describe('ADD', () => {
  test.each(['none', ...COMPRESSIONS] as const)('a local tar archive (%s) is unpacked into the destination, keeping its owners', async (compression) => {
    const tar = await contextTar({ 't/': '', 't/inner.txt': 'T' });
    const archive = compression === 'none' ? tar : compressedWith(compression, tar);
    const { image } = await runBuild(model, 'FROM busybox\nADD arch /x\nCOPY arch /copied/\n', { arch: archive });
    const fs = filesystemOf(image);
    expect(fs.readFile('/x/t/inner.txt').toString()).toBe('T');
    expect(fs.readFile('/copied/arch').equals(archive)).toBe(true);
  });

  test('a file that is no archive is copied as it is', async () => {
    const { image } = await runBuild(model, 'FROM busybox\nADD f /x/\n', { f: 'plain text' });
    expect(filesystemOf(image).readFile('/x/f').toString()).toBe('plain text');
  });

  test('a URL is downloaded (progress, then a blank line), named after its last path element, readable by root only', async () => {
    const download = async (url: string) => ({ data: Buffer.from(`from ${url}`) });
    const { image, output } = await runBuild(model, 'FROM busybox\nADD http://files.test/dir/f.txt /u/\nADD http://files.test/g /u2\n', {}, { download });
    const fs = filesystemOf(image);
    expect(fs.readFile('/u/f.txt').toString()).toBe('from http://files.test/dir/f.txt');
    expect(fs.stat('/u/f.txt')?.mode ?? 0).toBe(0o600);
    expect(fs.readFile('/u2').toString()).toBe('from http://files.test/g');
    const size = 'from http://files.test/dir/f.txt'.length;
    expect(output.messages.slice(5, 7)).toEqual([`[progress |Downloading|${size}/${size}]`, '\n']);
    expect(image.history.at(-2)?.createdBy).toMatch(/^\/bin\/sh -c #\(nop\) ADD [0-9a-f]{64} in \/u\/ $/);
  });

  test('a download that fails fails the step', async () => {
    const download = () => Promise.reject(new Error('Get "http://127.0.0.1:1/f": dial tcp 127.0.0.1:1: connect: connection refused'));
    const { error } = await failedBuild(model, 'FROM busybox\nADD http://127.0.0.1:1/f /x\n', {}, { download });
    expect(error.message).toContain('connection refused');
  });
});
