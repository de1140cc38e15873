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
  /** removes the image when this run imported it; a no-op otherwise */
  release(): Promise<void>;
}

async function imageExists(engine: EngineClient, name: string): Promise<boolean> {
  return (await engine.get(`/images/${encodeURIComponent(name)}/json`)).status === 200;
}

export async function ensureFixtureImage(engine: EngineClient, busyboxPath: string): Promise<FixtureImage> {
  const keep = { release: async () => undefined };
  if (await imageExists(engine, PREFERRED_IMAGE)) return { image: PREFERRED_IMAGE, ...keep };

  let binary: Buffer;
  try {
    binary = await fs.readFile(busyboxPath);
  } catch {
    throw new TargetError(`the target has no ${PREFERRED_IMAGE} and --busybox ${busyboxPath} cannot be read (install busybox-static, or pass --busybox PATH)`);
  }
  const rootfs = await buildBusyboxRootfs(binary);
  const image = fixtureImageTag(rootfs);
  if (await imageExists(engine, image)) return { image, ...keep };

  const [repo = image, tag = 'latest'] = image.split(':');
  const res = await engine.post('/images/create', {
    query: { fromSrc: '-', repo, tag },
    headers: { 'content-type': 'application/x-tar' },
    body: rootfs,
  });
  // The import answers 200 with a JSON progress stream; an error can hide inside it.
  if (res.status !== 200 || /"error"/.test(res.text()) || !(await imageExists(engine, image))) {
    throw new TargetError(`could not import the busybox fixture image: ${res.describe()}`);
  }
  return {
    image,
    release: async () => {
      await engine.delete(`/images/${encodeURIComponent(image)}`, { query: { force: 1 } });
    },
  };
}
