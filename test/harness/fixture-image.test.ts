/**
 * The fixture image on a daemon without busybox:latest: concurrent runs share one import under tags
 * of their own, and the image goes only with the last run's release.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createDispatcher } from '../../harness/client/dispatcher.ts';
import { EngineClient } from '../../harness/client/engine-client.ts';
import { ensureFixtureImage, PREFERRED_IMAGE } from '../../harness/fixture-image.ts';
import { connectionOf } from '../../harness/run/prepare-target.ts';
import { startReference, type RunningReference } from '../../reference/serve.ts';

let reference: RunningReference;
let engine: EngineClient;
let scratch: string;
let busybox: string;

beforeAll(async () => {
  reference = await startReference();
  const connection = connectionOf(reference.engineUrl);
  engine = new EngineClient(connection, createDispatcher(connection), undefined);
  expect((await engine.delete(`/images/${PREFERRED_IMAGE}`, { query: { force: 1 } })).status).toBe(200);
  scratch = await mkdtemp(join(tmpdir(), 'shipshape-fixture-'));
  busybox = join(scratch, 'busybox');
  await writeFile(busybox, '#!fake busybox\n');
});

afterAll(async () => {
  await reference.close();
  await rm(scratch, { recursive: true, force: true });
});

async function fixtureNames(): Promise<string[]> {
  const res = await engine.get('/images/json', { query: { filter: 'shipshape-busybox' } });
  return res.json<{ RepoTags: string[] }[]>().flatMap((image) => image.RepoTags);
}

test('two runs share one import under their own tags; the image goes with the last release', async () => {
  const first = await ensureFixtureImage(engine, busybox, '0000000a');
  const second = await ensureFixtureImage(engine, busybox, '0000000b');
  expect(second.id).toBe(first.id);
  expect(new Set([first.image, second.image]).size).toBe(2);
  expect((await fixtureNames()).sort()).toEqual([first.image, second.image].sort());

  await first.release();
  expect(await fixtureNames()).toEqual([second.image]);
  expect((await engine.get(`/images/${encodeURIComponent(second.image)}/json`)).status).toBe(200);

  await second.release();
  expect(await fixtureNames()).toEqual([]);
});
