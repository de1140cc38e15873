/**
 * POST /auth (spec/2 §4.2): a login to the run's registry, which trusts the token service. Good
 * credentials answer 200 with Status and, when the registry's token service gives one, an
 * IdentityToken; credentials the token service refuses answer 500, the spec's only error status.
 */
import { check } from '../../harness/check.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { refusedCredentials, registryUser } from '../registry-steps.ts';

check('system.auth.login-succeeded', {
  title: 'POST /auth with the user\'s password answers 200 {Status: "Login Succeeded"}, IdentityToken a string when present',
  spec: '2 §4.2',
  since: '1.18',
  tags: ['schema'],
  requires: ['registry'],
  covers: ['2:POST /auth', '2:POST /auth:body:username', '2:POST /auth:body:password', '2:POST /auth:body:serveraddress', '2:POST /auth:status:200'],
}, async (context) => {
  const { engine, expect } = context;
  const user = registryUser(context);
  const res = await engine.post('/auth', { json: { username: user.username, password: user.password, serveraddress: user.host } });
  expect(res.status, `login: ${res.describe()}`).toBe(200);
  const body = res.json<{ Status?: unknown; IdentityToken?: unknown }>();
  expect(body.Status, 'Status').toBe('Login Succeeded');
  if (body.IdentityToken !== undefined) expect(body.IdentityToken, 'IdentityToken').toEqual(expect.any(String));
});

check('system.auth.refused-credentials', {
  title: 'POST /auth with credentials the token service refuses (an unknown user) answers 500 with the error body of the version',
  spec: '2 §4.2',
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
