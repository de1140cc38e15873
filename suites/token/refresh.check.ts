/**
 * Refresh tokens (spec/3 §2.1, §2.2): good only for the service they were issued for, and only as
 * issued: another service, or a token the service never issued, gets no token (any status but 200:
 * spec/3 shows no other); the docker-level twins pin RFC 6749's 400 invalid_grant.
 */
import { randomBytes } from 'node:crypto';
import { check, type CheckMeta } from '../../harness/check.ts';
import { expectNoToken, expectOAuthError, expectSpecTokenResponse, offlineRefreshToken, refreshGrant, tokenSetup } from './token-steps.ts';

const REFRESH = { spec: '3 §2.1', since: '1.18', requires: ['token-service'] } satisfies Partial<CheckMeta>;
/** spec/3 §4 and §2.2: what expectSpecTokenResponse asserts of every 200 answer */
const TOKEN_RESPONSE = [
  '| POST /token | Content-Type `application/x-www-form-urlencoded` | form fields of 2.1 | 200 `application/json` token response of 2.2 |',
  '| access_token | yes | opaque bearer token; clients must not parse it; sent in the Authorization header of later requests |',
  '| scope | yes | scope granted; the requested scope or a subset; always present (stricter than RFC 6749 section 4.2.2) |',
  '| expires_in | yes | seconds the token stays valid from issue; defaults to 60 when omitted; a token is never returned with less than 60 seconds to live |',
  '| issued_at | no | RFC 3339 UTC time of issue; when omitted the expiry counts from the end of the token exchange |',
];
const NOT_SHOWN = 'Status codes of the token endpoint other than 200: not shown.';
const SERVICE = '| service | yes | name of the service hosting the resource; refresh tokens are good only for this service |';
/** RFC 6749 §5.2 errors: the spec shows no status but 200, nor an error body (spec/3 §4, §7.2) */
const OAUTH = { spec: '3 §2.1, §4', level: 'docker', seen: 'dockerd 20.10.24', since: '1.18', requires: ['token-service'], tags: ['error'] } satisfies Partial<CheckMeta>;

check('token.refresh.other-service', {
  ...REFRESH,
  title: 'a refresh token issued for service A gets no token for service B, and is still good for A',
  spec: '3 §2.1, §2.2, §4',
  quote: [SERVICE, ...TOKEN_RESPONSE, NOT_SHOWN],
  tags: ['error', 'state'],
  covers: ['3:POST /token:body:service', '3:POST /token:body:refresh_token'],
}, async (context) => {
  const setup = tokenSetup(context);
  const serviceA = setup.services.service;
  const serviceB = `${serviceA}-other`;
  const refreshToken = await offlineRefreshToken(context.expect, setup, serviceA);
  const refresh = (service: string) => setup.client.post(refreshGrant(setup, refreshToken, { service }));
  expectNoToken(context.expect, await refresh(serviceB), 'a refresh token of service A used for service B');
  expectSpecTokenResponse(context.expect, await refresh(serviceA));
});

check('token.refresh.other-service-oauth-error', {
  ...OAUTH,
  title: 'a refresh token issued for service A answers 400 invalid_grant for service B (RFC 6749 §5.2)',
}, async (context) => {
  const setup = tokenSetup(context);
  const refreshToken = await offlineRefreshToken(context.expect, setup);
  const answer = await setup.client.post(refreshGrant(setup, refreshToken, { service: `${setup.services.service}-other` }));
  expectOAuthError(context.expect, answer, [400], 'invalid_grant');
});

check('token.refresh.unknown', {
  ...REFRESH,
  title: 'a refresh token the service never issued gets no token',
  spec: '3 §2.1, §2.2, §4',
  quote: ['| refresh_token | no | the refresh token, for grant_type refresh_token |', 'The refresh token format is opaque to the client and decided by the server, which must make it long enough and store what is needed to revoke it.', NOT_SHOWN],
  tags: ['error'],
  covers: ['3:POST /token:body:refresh_token'],
}, async (context) => {
  const setup = tokenSetup(context);
  const answer = await setup.client.post(refreshGrant(setup, randomBytes(48).toString('base64url')));
  expectNoToken(context.expect, answer, 'a refresh token never issued');
});

check('token.refresh.unknown-oauth-error', {
  ...OAUTH,
  title: 'a refresh token the service never issued answers 400 invalid_grant (RFC 6749 §5.2)',
}, async (context) => {
  const setup = tokenSetup(context);
  const answer = await setup.client.post(refreshGrant(setup, randomBytes(48).toString('base64url')));
  expectOAuthError(context.expect, answer, [400], 'invalid_grant');
});
