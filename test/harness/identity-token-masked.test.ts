/** POST /auth's IdentityToken (a refresh token) never shows in what failure messages and reports quote of an engine answer. */
import { expect, test } from 'vitest';
import { ApiResponse } from '../../harness/client/api-response.ts';

const answer = (body: string) => new ApiResponse('POST', '/v1.25/auth', 200, { 'content-type': 'application/json' }, Buffer.from(body));

test('the IdentityToken of a login is masked in the record and the description, the rest kept', () => {
  const login = answer('{"IdentityToken":"s3cr3t-refresh-token","Status":"Login Succeeded"}');
  expect(login.record().bodyPreview).toBe('{"IdentityToken":"<masked>","Status":"Login Succeeded"}');
  expect(login.describe()).not.toContain('s3cr3t');
  expect(login.json<{ IdentityToken: string }>().IdentityToken).toBe('s3cr3t-refresh-token');
});

test('a preview cut inside the token masks what it holds of it', () => {
  const long = answer(`{"Status":"Login Succeeded","IdentityToken":"${'x'.repeat(400)}"}`);
  expect(long.record().bodyPreview).toBe('{"Status":"Login Succeeded","IdentityToken":"<masked>');
});
