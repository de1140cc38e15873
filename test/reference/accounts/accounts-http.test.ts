/**
 * The accounts API over HTTP, with the token service on one injected clock: bearer tokens are taken
 * until they expire (a token refused by the resource server once expired, without waiting a minute),
 * the user view's date_joined has microseconds, errors come in the documented order.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../../reference/serve.ts';

const ERIN = { username: 'erin', password: 'erin-pw-Qw12', email: 'erin@example.org', full_name: 'Erin', access: [] };
const FRANK = { username: 'frank', password: 'frank-pw-Er34', email: 'frank@example.org', access: [] };
let now = new Date('2026-05-01T08:00:00.123Z');
let reference: RunningReference;

beforeAll(async () => {
  reference = await startReference({ token: 'tcp://127.0.0.1:0', accounts: 'tcp://127.0.0.1:0', users: [ERIN, FRANK], clock: () => now });
});
afterAll(() => reference.close());

const basic = { authorization: `Basic ${Buffer.from(`erin:${ERIN.password}`).toString('base64')}` };
const user = (name = 'erin', resource = '') => `${reference.accounts?.url}/api/v1.1/users/${name}/${resource}`;

async function bearer(actions: string): Promise<{ authorization: string }> {
  const body = new URLSearchParams({ grant_type: 'password', service: reference.token?.service ?? '', client_id: 'tests', username: 'erin', password: ERIN.password, scope: `account:erin:${actions}` });
  const res = await fetch(`${reference.token?.url}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  return { authorization: `Bearer ${((await res.json()) as { access_token: string }).access_token}` };
}

test('the user view: every field, date_joined ISO 8601 with microseconds and Z, url of the resource', async () => {
  const res = await fetch(user(), { headers: basic });
  expect(await res.json()).toEqual({
    id: 1, username: 'erin', url: user(), date_joined: '2026-05-01T08:00:00.123000Z', type: 'User', full_name: 'Erin',
    location: '', company: '', profile_url: '', avatar_url: '', email: 'erin@example.org', is_active: true,
  });
});

test('a bearer token is taken until it expires, then refused with 401', async () => {
  const auth = await bearer('profile_read');
  expect((await fetch(user(), { headers: auth })).status).toBe(200);
  const started = now;
  now = new Date(started.getTime() + 299_000);
  expect((await fetch(user(), { headers: auth })).status).toBe(200);
  now = new Date(started.getTime() + 300_000);
  const expired = await fetch(user(), { headers: auth });
  now = started;
  expect(expired.status).toBe(401);
  expect(expired.headers.get('www-authenticate')).toContain('Bearer');
});

test('the order of refusals: 401 before 404 before 403 before 400', async () => {
  expect((await fetch(user('nobody'))).status).toBe(401);
  expect((await fetch(user('nobody'), { headers: basic })).status).toBe(404);
  expect((await fetch(user('frank'), { headers: basic })).status).toBe(403);
  const readOnly = await bearer('profile_read');
  expect((await fetch(user(), { method: 'PATCH', headers: { ...readOnly, 'content-type': 'application/json' }, body: '{"location":1}' })).status).toBe(403);
  expect((await fetch(user(), { method: 'PATCH', headers: { ...basic, 'content-type': 'application/json' }, body: '{"location":1}' })).status).toBe(400);
});

test('PATCH is all or nothing; avatar_email gives an avatar_url; bodies need a JSON or form Content-Type', async () => {
  const patch = (body: string, type = 'application/json') => fetch(user(), { method: 'PATCH', headers: { ...basic, 'content-type': type }, body });
  expect((await patch('{"company":"Acme","profile_url":"ftp://x"}')).status).toBe(400);
  expect(((await (await fetch(user(), { headers: basic })).json()) as { company: string }).company).toBe('');
  const changed = (await (await patch('company=Acme&avatar_email=Erin%40Example.org', 'application/x-www-form-urlencoded')).json()) as { company: string; avatar_url: string };
  expect(changed.company).toBe('Acme');
  expect(changed.avatar_url).toMatch(/\/avatars\/[0-9a-f]{32}$/);
  expect((await patch('{"company":"x"}', 'text/plain')).status).toBe(400);
});

test('addresses: a new one unverified and not primary, a case-insensitive copy refused, the primary kept, an unknown one 404', async () => {
  const send = (method: string, email: string) => fetch(user('erin', 'emails/'), { method, headers: { ...basic, 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  expect(await (await send('POST', 'erin2@example.org')).json()).toEqual({ email: 'erin2@example.org', verified: false, primary: false });
  expect((await send('POST', 'ERIN2@example.org')).status).toBe(400);
  expect((await send('DELETE', 'erin@example.org')).status).toBe(400);
  const deleted = await send('DELETE', 'Erin2@Example.org');
  expect([deleted.status, await deleted.text()]).toEqual([204, '']);
  expect((await send('DELETE', 'erin2@example.org')).status).toBe(404);
  expect(await (await fetch(user('erin', 'emails/'), { headers: basic })).json()).toEqual([{ email: 'erin@example.org', verified: true, primary: true }]);
});

// The reference's own limits, which spec/3 does not state (so no check asserts them: docs/decisions.md, "Token service and accounts API").
test('a full_name of 5 000 characters or a profile_url that is no URL is refused with 400 and changes nothing', async () => {
  const patch = (body: object) => fetch(user(), { method: 'PATCH', headers: { ...basic, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const before = await (await fetch(user(), { headers: basic })).json();
  expect((await patch({ full_name: 'x'.repeat(5_000) })).status).toBe(400);
  expect((await patch({ profile_url: 'not a url' })).status).toBe(400);
  expect(await (await fetch(user(), { headers: basic })).json()).toEqual(before);
});
