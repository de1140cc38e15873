/**
 * Malformed requests to POST /token (spec/3 §2.1, RFC 6749 §3.2, §5.2): a missing required field, a
 * body that is not a form, a parameter given twice, an access_type that is neither online nor offline:
 * each a 400 invalid_request.
 */
import { check, type CheckMeta } from '../../harness/check.ts';
import { encodeForm } from '../../harness/client/token-client.ts';
import { expectOAuthError, passwordGrant, tokenSetup } from './token-steps.ts';

const REQUEST = { spec: '3 §2.1', since: '1.18', requires: ['token-service'], tags: ['error'] } satisfies Partial<CheckMeta>;

for (const field of ['grant_type', 'service', 'client_id'] as const) {
  check(`token.request.missing-${field.replace('_', '-')}`, {
    ...REQUEST,
    title: `a token request without ${field} (required) answers 400 invalid_request`,
    covers: [`3:POST /token:body:${field}`],
  }, async (context) => {
    const setup = tokenSetup(context);
    const answer = await setup.client.post(passwordGrant(setup, { [field]: undefined }));
    expectOAuthError(context.expect, answer, [400], 'invalid_request');
  });
}

check('token.request.not-a-form', {
  ...REQUEST,
  title: 'a token request whose body is JSON instead of application/x-www-form-urlencoded answers 400 invalid_request',
  spec: '3 §4',
  covers: ['3:POST /token:header:Content-Type'],
}, async (context) => {
  const setup = tokenSetup(context);
  const answer = await setup.client.postRaw(JSON.stringify(passwordGrant(setup)), 'application/json');
  expectOAuthError(context.expect, answer, [400], 'invalid_request');
});

check('token.request.repeated-parameter', {
  ...REQUEST,
  title: 'a token request giving service twice answers 400 invalid_request (RFC 6749 §3.2)',
  covers: ['3:POST /token:body:service'],
}, async (context) => {
  const setup = tokenSetup(context);
  const body = `${encodeForm(passwordGrant(setup))}&${encodeForm({ service: `${setup.services.service}-again` })}`;
  const answer = await setup.client.postRaw(body, 'application/x-www-form-urlencoded');
  expectOAuthError(context.expect, answer, [400], 'invalid_request');
});

check('token.request.bad-access-type', {
  ...REQUEST,
  title: 'access_type other than online or offline answers 400 invalid_request',
  covers: ['3:POST /token:body:access_type'],
}, async (context) => {
  const setup = tokenSetup(context);
  const answer = await setup.client.post(passwordGrant(setup, { access_type: 'forever' }));
  expectOAuthError(context.expect, answer, [400], 'invalid_request');
});

check('token.request.missing-password', {
  ...REQUEST,
  title: 'a password grant without password answers 400 invalid_request',
  covers: ['3:POST /token:body:password'],
}, async (context) => {
  const setup = tokenSetup(context);
  const answer = await setup.client.post(passwordGrant(setup, { password: undefined }));
  expectOAuthError(context.expect, answer, [400], 'invalid_request');
});

check('token.request.missing-refresh-token', {
  ...REQUEST,
  title: 'a refresh_token grant without refresh_token answers 400 invalid_request',
  covers: ['3:POST /token:body:refresh_token'],
}, async (context) => {
  const setup = tokenSetup(context);
  const answer = await setup.client.post(passwordGrant(setup, { grant_type: 'refresh_token', username: undefined, password: undefined }));
  expectOAuthError(context.expect, answer, [400], 'invalid_request');
});
