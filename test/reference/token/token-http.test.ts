/** POST /token, GET /token and POST /revoke over HTTP: status, JSON bodies, no caching, Basic at GET, errors of RFC 6749 §5.2. */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTokenService, type RunningTokenService } from '../../../reference/token/token-service.ts';
import { UserStore } from '../../../reference/users/user-store.ts';

const DAVE = { username: 'dave', password: 'dave-pw-Zx81', email: 'dave@example.org', access: [{ type: 'repository', name: 'dave/*', actions: ['pull'] }] };
let service: RunningTokenService;

beforeAll(async () => {
  service = await startTokenService({ users: await UserStore.create([DAVE], { wait: async () => {} }), service: 'reg' });
});
afterAll(() => service.close());

const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const grant = { grant_type: 'password', service: 'reg', client_id: 'tests', username: 'dave', password: DAVE.password };

test('POST /token answers the token response as JSON, not to be cached', async () => {
  const res = await fetch(`${service.url}/token`, form({ ...grant, scope: 'repository:dave/app:pull,push' }));
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const body = (await res.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'issued_at', 'scope', 'token']);
  expect(body.scope).toBe('repository:dave/app:pull');
  expect(body.token).toBe(body.access_token);
});

test.each([
  ['a JSON body', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(grant) }, 400, 'invalid_request'],
  ['service twice', { ...form(grant), body: `${new URLSearchParams(grant).toString()}&service=other` }, 400, 'invalid_request'],
  ['authorization_code', form({ ...grant, grant_type: 'authorization_code' }), 400, 'unsupported_grant_type'],
  ['a wrong password', form({ ...grant, password: 'nope' }), 400, 'invalid_grant'],
])('POST /token with %s: %i %s', async (_what, init, status, code) => {
  const res = await fetch(`${service.url}/token`, init);
  expect(res.status).toBe(status);
  expect(((await res.json()) as { error?: string }).error).toBe(code);
});

test('GET /token: Basic with offline_token gives a refresh token, repeated scope is one list, a wrong password is 401 with a Basic challenge', async () => {
  const query = 'service=reg&scope=repository:dave/a:pull&scope=repository:dave/b:pull&offline_token=true&client_id=docker&account=dave';
  const ok = await fetch(`${service.url}/token?${query}`, { headers: basic('dave', DAVE.password) });
  const body = (await ok.json()) as Record<string, unknown>;
  expect([ok.status, body.scope, typeof body.refresh_token]).toEqual([200, 'repository:dave/a:pull repository:dave/b:pull', 'string']);
  const wrong = await fetch(`${service.url}/token?${query}`, { headers: basic('dave', 'nope') });
  expect(wrong.status).toBe(401);
  expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
  const otherAccount = await fetch(`${service.url}/token?service=reg&account=eve`, { headers: basic('dave', DAVE.password) });
  expect(otherAccount.status).toBe(400);
});

test('GET /token without credentials: an anonymous token granting nothing', async () => {
  const res = await fetch(`${service.url}/token?service=reg&scope=repository:dave/a:pull`);
  expect(res.status).toBe(200);
  expect(((await res.json()) as { scope?: string }).scope).toBe('');
});

test('POST /revoke forgets a refresh token: the refresh grant then fails', async () => {
  const { refresh_token } = (await (await fetch(`${service.url}/token`, form({ ...grant, access_type: 'offline' }))).json()) as { refresh_token: string };
  const refresh = () => fetch(`${service.url}/token`, form({ grant_type: 'refresh_token', service: 'reg', client_id: 'tests', refresh_token }));
  expect((await refresh()).status).toBe(200);
  expect((await fetch(`${service.url}/revoke`, form({ token: refresh_token }))).status).toBe(200);
  expect((await refresh()).status).toBe(400);
});

test('unknown paths are 404 and other methods on /token 405', async () => {
  expect((await fetch(`${service.url}/nowhere`)).status).toBe(404);
  expect((await fetch(`${service.url}/token`, { method: 'DELETE' })).status).toBe(405);
});
