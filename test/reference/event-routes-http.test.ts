/** GET /events over HTTP: what each API version sees of the event stream (spec/2 §6 rule 5). */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../reference/serve.ts';
import { httpCaller, type Call } from './http-client.ts';

let reference: RunningReference;
let call: Call;

beforeAll(async () => {
  reference = await startReference();
  call = httpCaller(reference.engineUrl);
  for (const action of ['attach', 'detach', 'exec_detach']) {
    reference.model.events.publish({ type: 'container', action, actorId: 'c0ffee', attributes: { name: 'web' }, time: new Date(1000) });
  }
});

afterAll(() => reference.close());

/** The actions of a closed window that holds the three events. */
async function actionsAt(version: string): Promise<string[]> {
  const res = await call('GET', `/v${version}/events?since=1&until=2`);
  expect(res.status).toBe(200);
  return res.text.trim().split('\n').map((line) => (JSON.parse(line) as { Action: string }).Action);
}

describe('GET /events by version', () => {
  test('detach and exec_detach reach clients from 1.24 only', async () => {
    expect({ '1.23': await actionsAt('1.23'), '1.24': await actionsAt('1.24') }).toEqual({ '1.23': ['attach'], '1.24': ['attach', 'detach', 'exec_detach'] });
  });

  test.each([
    ['1.20', 'label', 400],
    ['1.21', 'label', 200],
    ['1.23', 'daemon', 400],
    ['1.24', 'daemon', 200],
  ])('at %s the %s filter answers %i', async (version, filter, status) => {
    const filters = encodeURIComponent(JSON.stringify({ [filter]: ['x'] }));
    expect((await call('GET', `/v${version}/events?since=1&until=2&filters=${filters}`)).status).toBe(status);
  });

  test('timeNano from 1.21', async () => {
    const line = async (version: string) => JSON.parse((await call('GET', `/v${version}/events?since=1&until=2`)).text.split('\n')[0] ?? '{}') as Record<string, unknown>;
    expect({ '1.20': (await line('1.20')).timeNano, '1.21': (await line('1.21')).timeNano }).toEqual({ '1.20': undefined, '1.21': 1_000_000_000 });
  });
});
