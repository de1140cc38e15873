/**
 * Loading image tarballs into the model: what the reference saves, what dockerd saves (a real one
 * when dockerd is reachable, one built here in its layout otherwise), the legacy layout, what a load
 * reports, and malformed tarballs, which change nothing.
 */
import { Agent, request } from 'undici';
import { describe, expect, test } from 'vitest';
import { buildBusyboxRootfs } from '../../../fixtures/busybox-rootfs.ts';
import { LayeredFilesystem } from '../../../reference/engine/filesystem/layered-filesystem.ts';
import { readTar, writeTar, type TarMember } from '../../../reference/engine/filesystem/tar-io.ts';
import { loadImages, type LoadReport } from '../../../reference/engine/model/images/image-tarball-load.ts';
import { saveImages } from '../../../reference/engine/model/images/image-tarball-save.ts';
import type { ImageStore } from '../../../reference/engine/model/images/image-store.ts';
import { imageStore, sha256, stacked, tarballMembers } from './tarball-images.ts';

const DOCKERD_SOCKET = process.env.SHIPSHAPE_DOCKERD_SOCKET ?? '/tmp/sd/docker.sock';
const dockerdUp = await dockerdReachable();

async function load(images: ImageStore, archive: Buffer, quiet = false): Promise<LoadReport[]> {
  const reports: LoadReport[] = [];
  await loadImages(images, archive, { quiet, report: (report) => reports.push(report) });
  return reports;
}

const lines = (reports: LoadReport[]) => reports.flatMap((report) => (report.kind === 'stream' ? [report.text] : []));
const progressIds = (reports: LoadReport[]) => [...new Set(reports.flatMap((report) => (report.kind === 'progress' ? [report.id] : [])))];

const member = (name: string, data: string | Buffer): TarMember => ({ header: { name, size: Buffer.byteLength(data), mode: 0o644 }, data: Buffer.from(data) });

/** A layer tar as any tar writer would make it (not the reference's layerToTar). */
const layerTar = (files: Record<string, string>) => writeTar(Object.entries(files).map(([name, data]) => member(name, data)));

/**
 * A tarball in dockerd's layout, made here member by member: v1 directories (their ids need not be
 * dockerd's: load goes by manifest.json), the config document, manifest.json.
 */
async function dockerdLayoutTarball(layers: Buffer[], repoTags: string[], os = 'linux'): Promise<{ archive: Buffer; id: string }> {
  const diffIds = layers.map((layer) => sha256(layer));
  const config = JSON.stringify({
    architecture: 'amd64',
    config: { Cmd: ['sh'], Env: null },
    created: '2024-01-02T03:04:05.123456789Z',
    history: layers.map(() => ({ created: '2024-01-02T03:04:05.123456789Z', created_by: 'test' })),
    os,
    rootfs: { type: 'layers', diff_ids: diffIds },
  });
  const id = sha256(config);
  const directories = layers.map((_, index) => String(index + 1).repeat(64));
  const archive = await writeTar([
    ...layers.flatMap((layer, index) => [member(`${directories[index]}/VERSION`, '1.0'), member(`${directories[index]}/json`, '{}'), member(`${directories[index]}/layer.tar`, layer)]),
    member(`${id.slice(7)}.json`, config),
    member('manifest.json', JSON.stringify([{ Config: `${id.slice(7)}.json`, RepoTags: repoTags, Layers: directories.map((directory) => `${directory}/layer.tar`) }])),
  ]);
  return { archive, id };
}

function ls(images: ImageStore, name: string, path: string): string[] {
  return new LayeredFilesystem(images.find(name).layers).list(path);
}

describe('what the reference saves', () => {
  test('loads into a fresh store as the same images: ids, tags, layers, and the parent saved with it', async () => {
    const source = imageStore();
    const busybox = source.images.find('busybox');
    const app = await stacked(source.images, busybox, { '/app/main': 'v1' }, ['app:1']);
    const archive = await saveImages(source.images, ['busybox:latest', 'app:1']);

    const target = imageStore();
    const reports = await load(target.images, archive);
    const loaded = target.images.find('app:1');
    expect(loaded.id).toBe(app.id);
    expect(loaded.diffIds).toEqual(app.diffIds);
    expect(loaded.parent).toBe(busybox.id);
    expect(loaded.configDocument.equals(app.configDocument)).toBe(true);
    expect(ls(target.images, 'app:1', '/app')).toEqual(['main']);
    expect(lines(reports)).toEqual(['Loaded image: busybox:latest\n', 'Loaded image: app:1\n']);
  });

  test('a layer the store already holds is not read again: progress only for the new one', async () => {
    const source = imageStore();
    const app = await stacked(source.images, source.images.find('busybox'), { '/app': 'v1' }, ['app:1']);
    const reports = await load(imageStore().images, await saveImages(source.images, ['app:1']));
    expect(progressIds(reports)).toEqual([app.diffIds[1]?.slice(7, 19)]);
  });

  test('an image saved without its parent loads without one', async () => {
    const source = imageStore();
    await stacked(source.images, source.images.find('busybox'), { '/app': 'v1' }, ['app:1']);
    const target = imageStore();
    await load(target.images, await saveImages(source.images, ['app:1']));
    expect(target.images.find('app:1').parent).toBe('');
  });
});

describe('what dockerd saves', () => {
  test('a tarball in its layout loads with the id of its config document and its tag, its files in place', async () => {
    const { archive, id } = await dockerdLayoutTarball([await layerTar({ 'etc/hostname': 'x\n' }), await layerTar({ 'srv/data': 'y' })], ['made/here:v1']);
    const { images } = imageStore();
    const reports = await load(images, archive);
    expect(images.find('made/here:v1').id).toBe(id);
    expect(ls(images, 'made/here:v1', '/srv')).toEqual(['data']);
    expect(lines(reports)).toEqual(['Loaded image: made/here:v1\n']);
  });

  test.skipIf(!dockerdUp)('a tarball dockerd saved loads with dockerd`s id, and the reference saves it back file for file, byte for byte', async () => {
    const repository = `shipshape-tarball-test-${process.pid}`;
    const rootfs = await buildBusyboxRootfs(Buffer.from('not a real busybox'));
    const dockerd = new Agent({ connect: { socketPath: DOCKERD_SOCKET } });
    const call = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: Buffer) => request(`http://dockerd/v1.24${path}`, { method, body, dispatcher: dockerd, headers: { 'content-type': 'application/x-tar' } });
    try {
      await (await call('POST', `/images/create?fromSrc=-&repo=${repository}&tag=t`, rootfs)).body.text();
      const saved = Buffer.from(await (await call('GET', `/images/${repository}:t/get`)).body.arrayBuffer());
      const dockerdId = ((await (await call('GET', `/images/${repository}:t/json`)).body.json()) as { Id: string }).Id;
      const { images } = imageStore();
      await load(images, saved);
      expect(images.find(`${repository}:t`).id).toBe(dockerdId);
      const files = async (archive: Buffer) => [...(await tarballMembers(archive)).entries()].map(([name, { data }]) => [name, sha256(data)]);
      expect(await files(await saveImages(images, [`${repository}:t`]))).toEqual(await files(saved));
    } finally {
      await (await call('DELETE', `/images/${repository}:t`)).body.text();
      await dockerd.close();
    }
  });
});

async function dockerdReachable(): Promise<boolean> {
  const agent = new Agent({ connect: { socketPath: DOCKERD_SOCKET } });
  try {
    const answer = await request('http://dockerd/_ping', { dispatcher: agent, headersTimeout: 2000 });
    await answer.body.text();
    return answer.statusCode === 200;
  } catch {
    return false;
  } finally {
    await agent.close();
  }
}

describe('the legacy layout (no manifest.json)', () => {
  async function legacyTarball(repositories: string): Promise<Buffer> {
    const [lower, upper] = ['a'.repeat(64), 'b'.repeat(64)];
    return writeTar([
      member(`${lower}/VERSION`, '1.0'),
      member(`${lower}/json`, JSON.stringify({ id: lower, created: '2015-01-01T00:00:00Z', docker_version: '1.9.0', os: 'linux', container_config: { Cmd: ['/bin/sh', '-c', '#(nop) ADD file'] } })),
      member(`${lower}/layer.tar`, await layerTar({ 'bin/tool': 'x' })),
      member(`${upper}/VERSION`, '1.0'),
      member(`${upper}/json`, JSON.stringify({ id: upper, parent: lower, created: '2015-01-02T00:00:00Z', docker_version: '1.9.0', os: 'linux', config: { Cmd: ['tool'] } })),
      member(`${upper}/layer.tar`, await layerTar({ 'etc/tool.conf': 'y' })),
      member('repositories', repositories),
    ]);
  }

  test('each v1 layer becomes an image, chained by parent, the tag on the one repositories names', async () => {
    const { images, events } = imageStore();
    const reports = await load(images, await legacyTarball(JSON.stringify({ legacy: { old: 'b'.repeat(64) } })));
    const top = images.find('legacy:old');
    expect(top.diffIds).toHaveLength(2);
    expect(top.history.map((step) => step.createdBy)).toEqual(['/bin/sh -c #(nop) ADD file', '']);
    const parent = images.byId(top.parent);
    expect(parent?.diffIds).toEqual(top.diffIds.slice(0, 1));
    expect(parent?.repoTags).toEqual([]);
    expect(ls(images, 'legacy:old', '/etc')).toContain('tool.conf');
    // dockerd's legacy load announces nothing and publishes no load event
    expect(lines(reports)).toEqual([]);
    expect(progressIds(reports)).toEqual(['aaaaaaaaaaaa', 'bbbbbbbbbbbb']);
    expect(events.filter((event) => event.action === 'load')).toEqual([]);
  });

  test('a repositories entry naming a layer the tarball lacks is refused', async () => {
    const { images } = imageStore();
    await expect(load(images, await legacyTarball(JSON.stringify({ legacy: { old: 'c'.repeat(64) } })))).rejects.toThrow(`invalid target ID: ${'c'.repeat(64)}`);
  });
});

describe('what a load reports', () => {
  test('progress per layer read, as dockerd`s reader: after the first 32 KiB read, on the way, and twice at the end', async () => {
    const big = await layerTar({ blob: 'z'.repeat(200_000) });
    const { archive } = await dockerdLayoutTarball([big], ['big:1']);
    const progress = (await load(imageStore().images, archive)).flatMap((report) => (report.kind === 'progress' ? [report] : []));
    expect(progress[0]).toEqual({ kind: 'progress', id: sha256(big).slice(7, 19), current: 32_768, total: big.length });
    expect(progress.slice(-2).map((report) => report.current)).toEqual([big.length, big.length]);
    const currents = progress.map((report) => report.current);
    expect(currents).toEqual([...currents].sort((a, b) => a - b));
  });

  test('quiet: the confirmations only', async () => {
    const { archive } = await dockerdLayoutTarball([await layerTar({ a: 'a' })], ['quiet:1']);
    expect(await load(imageStore().images, archive, true)).toEqual([{ kind: 'stream', text: 'Loaded image: quiet:1\n' }]);
  });

  test('an image without a name is confirmed by its id', async () => {
    const { archive, id } = await dockerdLayoutTarball([await layerTar({ a: 'a' })], []);
    expect(lines(await load(imageStore().images, archive, true))).toEqual([`Loaded image ID: ${id}\n`]);
  });

  test('a tag taken from another image says so, and the other image loses it', async () => {
    const { images } = imageStore();
    const [first, second] = [await dockerdLayoutTarball([await layerTar({ a: '1' })], ['moved:1']), await dockerdLayoutTarball([await layerTar({ a: '2' })], ['moved:1'])];
    await load(images, first.archive);
    expect(lines(await load(images, second.archive, true))).toEqual([
      `The image moved:1 already exists, renaming the old one with ID ${first.id} to empty string\n`,
      'Loaded image: moved:1\n',
    ]);
    expect(images.byId(first.id)?.repoTags).toEqual([]);
  });

  test('each image loaded publishes `load`, named by its id', async () => {
    const { images, events } = imageStore();
    const { archive, id } = await dockerdLayoutTarball([await layerTar({ a: 'a' })], ['evented:1']);
    await load(images, archive);
    expect(events.filter((event) => event.action === 'load').map(({ actorId, attributes }) => [actorId, attributes.name])).toEqual([[id, id]]);
  });
});

describe('a malformed tarball', () => {
  const malformed: Array<[string, () => Promise<Buffer>, string | RegExp]> = [
    ['not a tar', async () => Buffer.alloc(1024, 7), 'Error processing tar file(exit status 1): archive/tar: invalid tar header'],
    ['a truncated tar', async () => (await layerTar({ a: 'x'.repeat(2000) })).subarray(0, 700), 'Error processing tar file(exit status 1): unexpected EOF'],
    ['no manifest and no repositories', async () => layerTar({ note: 'x' }), 'open repositories: no such file or directory'],
    ['a manifest that is not JSON', async () => writeTar([member('manifest.json', '[{bad')]), /^invalid character/],
    ['a manifest naming a missing config', async () => writeTar([member('manifest.json', '[{"Config":"c.json","Layers":[]}]')]), 'open c.json: no such file or directory'],
    [
      'a config that is not JSON',
      async () => {
        const { archive } = await dockerdLayoutTarball([await layerTar({ a: 'a' })], ['bad:1']);
        return swapMember(archive, /^[0-9a-f]{64}\.json$/, Buffer.from('{oops'));
      },
      /^invalid character/,
    ],
    [
      'a missing layer',
      async () => {
        const { archive } = await dockerdLayoutTarball([await layerTar({ a: 'a' })], ['bad:1']);
        return swapMember(archive, /layer\.tar$/, undefined);
      },
      /^open 1{64}\/layer\.tar: no such file or directory$/,
    ],
    [
      'a layer whose digest is not the diff id the config names',
      async () => {
        const { archive } = await dockerdLayoutTarball([await layerTar({ a: 'a' })], ['bad:1']);
        return swapMember(archive, /layer\.tar$/, await layerTar({ a: 'tampered' }));
      },
      /^invalid diffID for layer 0: expected "sha256:[0-9a-f]{64}", got "sha256:[0-9a-f]{64}"$/,
    ],
    [
      'a manifest with fewer layers than the config',
      async () => {
        const { archive } = await dockerdLayoutTarball([await layerTar({ a: 'a' }), await layerTar({ b: 'b' })], ['bad:1']);
        const manifest = JSON.parse((await tarMemberData(archive, 'manifest.json')).toString()) as Array<{ Layers: string[] }>;
        manifest[0]?.Layers.pop();
        return swapMember(archive, /^manifest\.json$/, Buffer.from(JSON.stringify(manifest)));
      },
      'invalid manifest, layers length mismatch: expected 1, got 2',
    ],
    ['a name without a tag', async () => (await dockerdLayoutTarball([await layerTar({ a: 'a' })], ['untagged@sha256:' + 'a'.repeat(64)])).archive, /^invalid tag "untagged@sha256:a{64}"$/],
    ['an image for another OS', async () => (await dockerdLayoutTarball([await layerTar({ a: 'a' })], ['win:1'], 'windows')).archive, 'cannot load windows image on linux'],
  ];

  test.each(malformed)('%s: refused with dockerd`s error, the store untouched and no event', async (_, tarball, message) => {
    const { images, events } = imageStore();
    const before = images.list().map((image) => [image.id, [...image.repoTags]]);
    await expect(load(images, await tarball())).rejects.toThrow(message);
    expect(images.list().map((image) => [image.id, [...image.repoTags]])).toEqual(before);
    expect(events).toEqual([]);
  });

  test('a good image before a bad one in the same tarball is not loaded', async () => {
    const good = await dockerdLayoutTarball([await layerTar({ a: 'a' })], ['good:1']);
    const manifest = JSON.parse((await tarMemberData(good.archive, 'manifest.json')).toString()) as unknown[];
    const archive = await swapMember(good.archive, /^manifest\.json$/, Buffer.from(JSON.stringify([...manifest, { Config: 'missing.json', Layers: [] }])));
    const { images } = imageStore();
    await expect(load(images, archive)).rejects.toThrow('open missing.json: no such file or directory');
    expect(() => images.find('good:1')).toThrow('No such image');
  });
});

async function tarMemberData(archive: Buffer, name: string): Promise<Buffer> {
  const found = (await readTar(archive)).find(({ header }) => header.name === name);
  if (found === undefined) throw new Error(`no ${name}`);
  return found.data;
}

/** The tarball with the members matching `pattern` replaced by `data`, or dropped when it is undefined. */
async function swapMember(archive: Buffer, pattern: RegExp, data: Buffer | undefined): Promise<Buffer> {
  const members = await readTar(archive);
  return writeTar(members.flatMap(({ header, data: original }) => (!pattern.test(header.name) ? [member(header.name, original)] : data === undefined ? [] : [member(header.name, data)])));
}
