/**
 * Checks run their commands in a busybox image. A live target keeps the `busybox:latest` it has;
 * otherwise the harness imports a rootfs built from the host's busybox binary, under a tag of the run's
 * own, and removes that tag at the end so the daemon is left as it was found.
 */
import fs from 'node:fs/promises';
import type { EngineClient } from './client/engine-client.ts';
import { buildBusyboxRootfs, FIXTURE_REPOSITORY, fixtureImageTag } from '../fixtures/busybox-rootfs.ts';
import { TargetError } from './target.ts';

export const PREFERRED_IMAGE = 'busybox:latest';

export interface FixtureImage {
  image: string;
  /** the image id on the target */
  id: string;
  /** takes the run's tag off the imported image (the image goes with its last tag); a no-op for the daemon's own busybox */
  release(): Promise<void>;
}

/** The image's id, or undefined when the target does not have it. */
async function imageId(engine: EngineClient, name: string): Promise<string | undefined> {
  const res = await engine.get(`/images/${encodeURIComponent(name)}/json`);
  return res.status === 200 ? res.json<{ Id: string }>().Id : undefined;
}

export async function ensureFixtureImage(engine: EngineClient, busyboxPath: string, runId: string): Promise<FixtureImage> {
  const preferred = await imageId(engine, PREFERRED_IMAGE);
  if (preferred) return { image: PREFERRED_IMAGE, id: preferred, release: async () => undefined };

  let binary: Buffer;
  try {
    binary = await fs.readFile(busyboxPath);
  } catch {
    throw new TargetError(`the target has no ${PREFERRED_IMAGE} and --busybox ${busyboxPath} cannot be read (install busybox-static, or pass --busybox PATH)`);
  }
  const rootfs = await buildBusyboxRootfs(binary);
  // A tag of this run's own on the content-named image: concurrent runs share one import, and each
  // release takes off only its own name, so the image goes with the last run that used it.
  const base = fixtureImageTag(rootfs);
  const image = `${base}-${runId}`;
  const [repo = image, tag = 'latest'] = image.split(':');
  const release = async () => {
    await engine.delete(`/images/${encodeURIComponent(image)}`, { query: { force: 1 } });
  };
  const shared = await importedBefore(engine, base);
  if (shared && (await engine.post(`/images/${shared}/tag`, { query: { repo, tag } })).status === 201) return { image, id: shared, release };

  const res = await engine.post('/images/create', {
    query: { fromSrc: '-', repo, tag },
    headers: { 'content-type': 'application/x-tar' },
    body: rootfs,
  });
  // The import answers 200 with a JSON progress stream; an error can hide inside it.
  const imported = res.status === 200 && !/"error"/.test(res.text());
  const id = imported ? ((await imageId(engine, image)) ?? (await retagLatest(engine, repo, tag))) : undefined;
  if (!id) throw new TargetError(`could not import the busybox fixture image: ${res.describe()}`);
  return { image, id, release };
}

/**
 * Podman 4.3 names an import `repo:latest` whatever `tag` says: the run's tag goes on by id and the
 * stray `latest` comes off (an untag, since the image keeps the run's name), so nothing is left behind.
 */
async function retagLatest(engine: EngineClient, repo: string, tag: string): Promise<string | undefined> {
  const latest = `${repo}:latest`;
  const id = await imageId(engine, latest);
  if (!id || (await engine.post(`/images/${id}/tag`, { query: { repo, tag } })).status !== 201) return undefined;
  await engine.delete(`/images/${encodeURIComponent(latest)}`);
  return id;
}

/** The id of an image a run imported from the same rootfs (named `<base>` or `<base>-<run id>`), if one is there. */
async function importedBefore(engine: EngineClient, base: string): Promise<string | undefined> {
  const res = await engine.get('/images/json', { query: { filter: FIXTURE_REPOSITORY } });
  if (res.status !== 200) return undefined;
  const images = res.json<{ Id: string; RepoTags?: string[] | null }[]>();
  return images.find((listed) => (listed.RepoTags ?? []).some((name) => name === base || name.startsWith(`${base}-`)))?.Id;
}
