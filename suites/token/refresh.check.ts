/**
 * Refresh tokens (spec/3 §2.1, §2.2): good only for the service they were issued for, and only as
 * issued: another service, or a token the service never issued, is 400 invalid_grant.
 */
import { randomBytes } from 'node:crypto';
import { check, type CheckMeta } from '../../harness/check.ts';
import { expectOAuthError, expectTokenResponse, offlineRefreshToken, refreshGrant, tokenSetup } from './token-steps.ts';

const REFRESH = { spec: '3 §2.1', since: '1.18', requires: ['token-service'] } satisfies Partial<CheckMeta>;

check('token.refresh.other-service', {
  ...REFRESH,
  title: 'a refresh token issued for service A is refused for service B (400 invalid_grant), and still good for A',
  tags: ['error', 'state'],
  covers: ['3:POST /token:body:service', '3:POST /token:body:refresh_token'],
}, async (context) => {
  const setup = tokenSetup(context);
  const serviceA = setup.services.service;
  const serviceB = `${serviceA}-other`;
  const refreshToken = await offlineRefreshToken(context.expect, setup, serviceA);
  const refresh = (service: string) => setup.client.post(refreshGrant(setup, refreshToken, { service }));
  expectOAuthError(context.expect, await refresh(serviceB), [400], 'invalid_grant');
  expectTokenResponse(context.expect, await refresh(serviceA));
});

check('token.refresh.unknown', {
  ...REFRESH,
  title: 'a refresh token the service never issued answers 400 invalid_grant',
  tags: ['error'],
  covers: ['3:POST /token:body:refresh_token'],
}, async (context) => {
  const setup = tokenSetup(context);
  const answer = await setup.client.post(refreshGrant(setup, randomBytes(48).toString('base64url')));
  expectOAuthError(context.expect, answer, [400], 'invalid_grant');
});
