/**
 * POST /auth (spec/2 §4.2): a login to the run's registry, which trusts the token service. Good
 * credentials answer 200 with Status and, when the registry's token service gives one, an
 * IdentityToken, or 204 (the row lists both); credentials the token service refuses answer 500, the
 * spec's only error status. dockerd's Status wording is a docker-level check.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import type { ApiResponse } from '../../harness/client/api-response.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { refusedCredentials, registryUser } from '../registry-steps.ts';

/** POST /auth with the run's user and password. */
function login(context: CheckContext): Promise<ApiResponse> {
  const user = registryUser(context);
  return context.engine.post('/auth', { json: { username: user.username, password: user.password, serveraddress: user.host } });
}

check('system.auth.login-succeeded', {
  title: 'POST /auth with the user\'s password succeeds: 200 {Status (string), IdentityToken (a string when present)}, or 204',
  spec: '2 §4.2',
  quote: ['| POST /auth | | JSON {username, password, serveraddress} | 200 {Status (string), IdentityToken (string, when the registry supports it)} | 200, 204, 500 |'],
  since: '1.18',
  tags: ['schema'],
  requires: ['registry'],
  covers: ['2:POST /auth', '2:POST /auth:body:username', '2:POST /auth:body:password', '2:POST /auth:body:serveraddress', '2:POST /auth:status:200'],
}, async (context) => {
  const { expect } = context;
  const res = await login(context);
  // The row lists 204 besides 200 and no meaning for it but success (500 is the error).
  expect([200, 204], `login: ${res.describe()}`).toContain(res.status);
  if (res.status === 204) return;
  const body = res.json<{ Status?: unknown; IdentityToken?: unknown }>();
  expect(typeof body.Status, 'type of Status').toBe('string');
  if (body.IdentityToken !== undefined) expect(body.IdentityToken, 'IdentityToken').toEqual(expect.any(String));
});

check('system.auth.login-succeeded-status', {
  title: 'POST /auth with the user\'s password answers 200 {Status: "Login Succeeded"} (as dockerd)',
  spec: '2 §4.2',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['schema'],
  requires: ['registry'],
}, async (context) => {
  const res = await login(context);
  context.expect(res.status, `login: ${res.describe()}`).toBe(200);
  context.expect(res.json<{ Status?: unknown }>().Status, 'Status').toBe('Login Succeeded');
});

check('system.auth.refused-credentials', {
  title: 'POST /auth with credentials the token service refuses (an unknown user) answers 500 with the error body of the version',
  spec: '2 §4.2, 1 §7',
  quote: ['| POST /auth | | JSON {username, password, serveraddress} | 200 {Status (string), IdentityToken (string, when the registry supports it)} | 200, 204, 500 |', 'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.'],
  since: '1.18',
  tags: ['error'],
  requires: ['registry'],
  covers: ['2:POST /auth:body:username', '2:POST /auth:body:password', '2:POST /auth:status:500', '1:version-rule:1.24:json-errors'],
}, async (context) => {
  const user = registryUser(context);
  const res = await context.engine.post('/auth', { json: { ...refusedCredentials(context), serveraddress: user.host } });
  context.expect(res.status, `login with refused credentials: ${res.describe()}`).toBe(500);
  expectErrorBodyOfVersion(context, res);
});
