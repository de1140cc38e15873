/**
 * What leftover removal (run end, Ctrl-C, `shipshape cleanup`) does to volumes, against the
 * reference: a run's labelled and run-named volumes go, after the run's containers that use them;
 * another run's go only when every run's are asked for; nobody else's ever.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { createDispatcher } from '../../../harness/client/dispatcher.ts';
import { EngineClient } from '../../../harness/client/engine-client.ts';
import { RUN_LABEL } from '../../../harness/resources.ts';
import { removeLeftovers } from '../../../harness/run/leftover-removal.ts';
import { startReference, type RunningReference } from '../../../reference/serve.ts';

const RUN = '0a1b2c3d';
const OTHER_RUN = 'deadbeef';

let reference: RunningReference;
let engine: EngineClient;
let close: () => Promise<void>;

beforeAll(async () => {
  reference = await startReference();
  const connection = { origin: reference.engineUrl.replace(/^tcp:/, 'http:') };
  const dispatcher = createDispatcher(connection);
  engine = new EngineClient(connection, dispatcher, undefined);
  close = async () => {
    await dispatcher.close();
    await reference.close();
  };
});
afterAll(() => close());
beforeEach(() => reference.reset());

async function volume(Name: string, Labels: Record<string, string> = {}): Promise<void> {
  expect((await engine.post('/volumes/create', { json: { Name, Labels } })).status).toBe(201);
}

async function volumeNames(): Promise<string[]> {
  return (await engine.get('/volumes')).json<{ Volumes: { Name: string }[] }>().Volumes.map((item) => item.Name).sort();
}

test("removes the run's labelled and run-named volumes once its containers are gone, and nothing of anyone else", async () => {
  await volume('labelled', { [RUN_LABEL]: RUN });
  await volume(`shipshape-${RUN}-v-abc123`);
  await volume('other-run', { [RUN_LABEL]: OTHER_RUN });
  await volume(`shipshape-${OTHER_RUN}-v-abc123`);
  await volume('someone');
  const created = await engine.post('/containers/create', {
    json: { Image: 'busybox', Cmd: ['true'], Labels: { [RUN_LABEL]: RUN }, Volumes: { '/anon': {} }, HostConfig: { Binds: ['labelled:/data'] } },
  });
  expect(created.status).toBe(201);
  const removal = await removeLeftovers(engine, RUN);
  expect(removal.failed).toEqual([]);
  expect(removal.removed).toEqual(expect.arrayContaining(['volume labelled', `volume shipshape-${RUN}-v-abc123`]));
  expect(await volumeNames()).toEqual(['other-run', 'shipshape-deadbeef-v-abc123', 'someone']);
  await removeLeftovers(engine);
  expect(await volumeNames()).toEqual(['someone']);
});
