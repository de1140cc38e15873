/**
 * Malformed requests to POST /token (spec/3 §2.1, §4): a missing required field, a body that is not a
 * form, a grant without what it needs: no token. Which status and body a refusal has spec/3 does not
 * show (§4, §7.2), so the spec checks take any status but 200; the docker-level twins
 * (`…-oauth-error`) pin RFC 6749's 400 invalid_request (§3.2, §5.2), as Docker's token servers answer.
 * A parameter given twice (RFC 6749 §3.2) is docker-level only: spec/3 says only of scope that it is
 * "specified once". An access_type that is neither online nor offline may be read as online.
 */
import { check, type CheckMeta } from '../../harness/check.ts';
import { encodeForm, type FormFields } from '../../harness/client/token-client.ts';
import type { ServiceAnswer } from '../../harness/client/service-answer.ts';
import { expectNoToken, expectOAuthError, passwordGrant, type TokenSetup, tokenSetup } from './token-steps.ts';

const REQUEST = { spec: '3 §2.1', since: '1.18', requires: ['token-service'], tags: ['error'] } satisfies Partial<CheckMeta>;
/** RFC 6749 §5.2 errors: the spec shows no status but 200, nor an error body (spec/3 §4, §7.2) */
const OAUTH = { spec: '3 §2.1, §4', level: 'docker', seen: 'dockerd 20.10.24', since: '1.18', requires: ['token-service'], tags: ['error'] } satisfies Partial<CheckMeta>;
const NOT_SHOWN = 'Status codes of the token endpoint other than 200: not shown.';
const GRANT_TYPE = '| grant_type | yes | `password` (with username and password, to obtain a refresh token), `refresh_token` (with refresh_token, to obtain an access token), `authorization_code` (reserved for future use) |';

interface Malformed {
  id: string;
  what: string;
  spec: string;
  quote: string[];
  covers: string[];
  send: (setup: TokenSetup) => Promise<ServiceAnswer>;
}

const post = (fields: FormFields) => (setup: TokenSetup) => setup.client.post(fields);

const MALFORMED: Malformed[] = [
  ...(['grant_type', 'service', 'client_id'] as const).map((field): Malformed => ({
    id: `missing-${field.replace('_', '-')}`,
    what: `a token request without ${field} (required)`,
    spec: '3 §2.1, §4',
    quote: [`| ${field} | yes |`, NOT_SHOWN],
    covers: [`3:POST /token:body:${field}`],
    send: (setup) => post(passwordGrant(setup, { [field]: undefined }))(setup),
  })),
  {
    id: 'not-a-form',
    what: 'a token request whose body is JSON instead of application/x-www-form-urlencoded',
    spec: '3 §4',
    quote: ['| POST /token | Content-Type `application/x-www-form-urlencoded` | form fields of 2.1 |', NOT_SHOWN],
    covers: ['3:POST /token:header:Content-Type'],
    send: (setup) => setup.client.postRaw(JSON.stringify(passwordGrant(setup)), 'application/json'),
  },
  {
    id: 'missing-password',
    what: 'a password grant without password',
    spec: '3 §2.1, §4',
    quote: [GRANT_TYPE, '| password | no | for grant_type password |', NOT_SHOWN],
    covers: ['3:POST /token:body:password'],
    send: (setup) => post(passwordGrant(setup, { password: undefined }))(setup),
  },
  {
    id: 'missing-refresh-token',
    what: 'a refresh_token grant without refresh_token',
    spec: '3 §2.1, §4',
    quote: [GRANT_TYPE, '| refresh_token | no | the refresh token, for grant_type refresh_token |', NOT_SHOWN],
    covers: ['3:POST /token:body:refresh_token'],
    send: (setup) => post(passwordGrant(setup, { grant_type: 'refresh_token', username: undefined, password: undefined }))(setup),
  },
];

for (const malformed of MALFORMED) {
  check(`token.request.${malformed.id}`, {
    ...REQUEST,
    title: `${malformed.what} gets no token (any status but 200)`,
    spec: malformed.spec,
    quote: malformed.quote,
    covers: malformed.covers,
  }, async (context) => {
    expectNoToken(context.expect, await malformed.send(tokenSetup(context)), malformed.what);
  });

  check(`token.request.${malformed.id}-oauth-error`, {
    ...OAUTH,
    title: `${malformed.what} answers 400 invalid_request (RFC 6749 §5.2)`,
  }, async (context) => {
    expectOAuthError(context.expect, await malformed.send(tokenSetup(context)), [400], 'invalid_request');
  });
}

check('token.request.repeated-parameter', {
  ...OAUTH,
  title: 'a token request giving service twice answers 400 invalid_request (RFC 6749 §3.2)',
  covers: ['3:POST /token:body:service'],
}, async (context) => {
  // spec/3 §2.1 says "specified once" of scope only: a repeated parameter being an error is RFC 6749 §3.2's.
  const setup = tokenSetup(context);
  const body = `${encodeForm(passwordGrant(setup))}&${encodeForm({ service: `${setup.services.service}-again` })}`;
  const answer = await setup.client.postRaw(body, 'application/x-www-form-urlencoded');
  expectOAuthError(context.expect, answer, [400], 'invalid_request');
});

check('token.request.bad-access-type', {
  ...REQUEST,
  title: 'access_type other than online or offline gets no refresh token: refused (any status but 200), or a token without one',
  spec: '3 §2.1, §2.2, §4',
  quote: [
    '| access_type | no | `offline` returns a refresh token; default `online` returns only a short-lived access token;',
    '| refresh_token | no | set only when access_type=offline is in the request;',
    NOT_SHOWN,
  ],
  covers: ['3:POST /token:body:access_type'],
}, async (context) => {
  const setup = tokenSetup(context);
  const answer = await setup.client.post(passwordGrant(setup, { access_type: 'forever' }));
  if (answer.status !== 200) return;
  context.expect('refresh_token' in answer.json<Record<string, unknown>>(), `access_type=forever is not offline: no refresh_token: ${answer.describe()}`).toBe(false);
});

check('token.request.bad-access-type-oauth-error', {
  ...OAUTH,
  title: 'access_type other than online or offline answers 400 invalid_request (RFC 6749 §5.2)',
}, async (context) => {
  const setup = tokenSetup(context);
  expectOAuthError(context.expect, await setup.client.post(passwordGrant(setup, { access_type: 'forever' })), [400], 'invalid_request');
});
