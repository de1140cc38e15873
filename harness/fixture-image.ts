/**
 * Checks run their commands in a busybox image. A live target keeps the `busybox:latest` it has;
 * otherwise the harness imports a rootfs built from the host's busybox binary, under a tag of its own,
 * and removes it at the end so the daemon is left as it was found.
 */
import fs from 'node:fs/promises';
import type { EngineClient } from './client/engine-client.ts';
import { buildBusyboxRootfs, fixtureImageTag } from '../fixtures/busybox-rootfs.ts';
import { TargetError } from './target.ts';

export const PREFERRED_IMAGE = 'busybox:latest';

export interface FixtureImage {
  image: string;
  /** the image id on the target */
  id: string;
  /** removes the image when this run imported it; a no-op otherwise */
  release(): Promise<void>;
}

/** The image's id, or undefined when the target does not have it. */
async function imageId(engine: EngineClient, name: string): Promise<string | undefined> {
  const res = await engine.get(`/images/${encodeURIComponent(name)}/json`);
  return res.status === 200 ? res.json<{ Id: string }>().Id : undefined;
}

export async function ensureFixtureImage(engine: EngineClient, busyboxPath: string): Promise<FixtureImage> {
  const keep = { release: async () => undefined };
  const preferred = await imageId(engine, PREFERRED_IMAGE);
  if (preferred) return { image: PREFERRED_IMAGE, id: preferred, ...keep };

  let binary: Buffer;
  try {
    binary = await fs.readFile(busyboxPath);
  } catch {
    throw new TargetError(`the target has no ${PREFERRED_IMAGE} and --busybox ${busyboxPath} cannot be read (install busybox-static, or pass --busybox PATH)`);
  }
  const rootfs = await buildBusyboxRootfs(binary);
  const image = fixtureImageTag(rootfs);
  const existing = await imageId(engine, image);
  if (existing) return { image, id: existing, ...keep };

  const [repo = image, tag = 'latest'] = image.split(':');
  const res = await engine.post('/images/create', {
    query: { fromSrc: '-', repo, tag },
    headers: { 'content-type': 'application/x-tar' },
    body: rootfs,
  });
  // The import answers 200 with a JSON progress stream; an error can hide inside it.
  const id = res.status === 200 && !/"error"/.test(res.text()) ? await imageId(engine, image) : undefined;
  if (!id) throw new TargetError(`could not import the busybox fixture image: ${res.describe()}`);
  return {
    image,
    id,
    release: async () => {
      await engine.delete(`/images/${encodeURIComponent(image)}`, { query: { force: 1 } });
    },
  };
}
