/**
 * The grants of POST /token (spec/3 §2.1, §2.2): password gives an access token, online by default
 * (no refresh token) and offline with one; refresh_token gives an access token and the same refresh
 * token, never a new one; authorization_code is reserved, so unsupported; wrong credentials are an
 * RFC 6749 §5.2 error.
 */
import { check, type CheckMeta } from '../../harness/check.ts';
import { expectOAuthError, expectTokenResponse, MIN_EXPIRES_IN, offlineRefreshToken, passwordGrant, refreshGrant, tokenSetup } from './token-steps.ts';

const TOKEN = { spec: '3 §2.1', since: '1.18', requires: ['token-service'] } satisfies Partial<CheckMeta>;
/** RFC 6749 §5.2: a refresh token "should" be long enough not to be guessed: 128 bits in base64 at least */
const MIN_REFRESH_TOKEN_LENGTH = 22;

check('token.grant.password', {
  ...TOKEN,
  title: 'a password grant answers 200 with access_token, scope, expires_in of at least 60 and an RFC 3339 UTC issued_at',
  spec: '3 §2.2',
  tags: ['schema'],
  covers: [
    '3:POST /token',
    '3:POST /token:body:grant_type',
    '3:POST /token:body:service',
    '3:POST /token:body:client_id',
    '3:POST /token:body:username',
    '3:POST /token:body:password',
    '3:POST /token:header:Content-Type',
    '3:POST /token:status:200',
  ],
}, async (context) => {
  const setup = tokenSetup(context);
  const answer = await setup.client.post(passwordGrant(setup));
  const body = expectTokenResponse(context.expect, answer);
  context.expect(Number(body.expires_in), `expires_in must be at least ${MIN_EXPIRES_IN} (spec/3 §8): ${answer.describe()}`).toBeGreaterThanOrEqual(MIN_EXPIRES_IN);
});

check('token.grant.online-no-refresh-token', {
  ...TOKEN,
  title: 'a password grant without access_type (online) returns no refresh token',
  tags: ['state'],
  covers: ['3:POST /token:body:access_type'],
}, async (context) => {
  const setup = tokenSetup(context);
  const answer = await setup.client.post(passwordGrant(setup));
  const body = expectTokenResponse(context.expect, answer);
  context.expect('refresh_token' in body, `access_type online must not return a refresh_token: ${answer.describe()}`).toBe(false);
});

check('token.grant.offline-refresh-token', {
  ...TOKEN,
  title: 'access_type=offline returns a long refresh token, a new one each grant',
  tags: ['state'],
  covers: ['3:POST /token:body:access_type'],
}, async (context) => {
  const setup = tokenSetup(context);
  const answers = [await setup.client.post(passwordGrant(setup, { access_type: 'offline' })), await setup.client.post(passwordGrant(setup, { access_type: 'offline' }))];
  const tokens = answers.map((answer) => {
    const body = expectTokenResponse(context.expect, answer);
    context.expect(typeof body.refresh_token, `access_type offline must return a refresh_token: ${answer.describe()}`).toBe('string');
    context.expect(String(body.refresh_token).length, `a refresh token must be long (at least ${MIN_REFRESH_TOKEN_LENGTH} characters): ${answer.describe()}`).toBeGreaterThanOrEqual(MIN_REFRESH_TOKEN_LENGTH);
    return String(body.refresh_token);
  });
  context.expect(tokens[0] === tokens[1], 'two offline grants returned the same refresh token: it must be random').toBe(false);
});

check('token.grant.refresh', {
  ...TOKEN,
  title: 'a refresh_token grant answers 200 with an access token and no refresh token when online',
  tags: ['state'],
  covers: ['3:POST /token:body:grant_type', '3:POST /token:body:refresh_token', '3:POST /token:status:200'],
}, async (context) => {
  const setup = tokenSetup(context);
  const refreshToken = await offlineRefreshToken(context.expect, setup);
  const answer = await setup.client.post(refreshGrant(setup, refreshToken));
  const body = expectTokenResponse(context.expect, answer);
  context.expect('refresh_token' in body, `access_type online must not return a refresh_token: ${answer.describe()}`).toBe(false);
});

check('token.grant.refresh-same-token', {
  ...TOKEN,
  title: 'a refresh_token grant with access_type=offline returns the same refresh token, never a new one',
  tags: ['state'],
  covers: ['3:POST /token:body:refresh_token', '3:POST /token:body:access_type'],
}, async (context) => {
  const setup = tokenSetup(context);
  const refreshToken = await offlineRefreshToken(context.expect, setup);
  const answer = await setup.client.post(refreshGrant(setup, refreshToken, { access_type: 'offline' }));
  const body = expectTokenResponse(context.expect, answer);
  context.expect(body.refresh_token === refreshToken, `the refresh grant must return the refresh token it was given, not another: ${answer.describe()}`).toBe(true);
});

check('token.grant.authorization-code-unsupported', {
  ...TOKEN,
  title: 'grant_type authorization_code (reserved) answers 400 unsupported_grant_type',
  tags: ['error'],
  covers: ['3:POST /token:body:grant_type'],
}, async (context) => {
  const setup = tokenSetup(context);
  const answer = await setup.client.post({ ...passwordGrant(setup, { username: undefined, password: undefined }), grant_type: 'authorization_code', code: 'shipshape-code' });
  expectOAuthError(context.expect, answer, [400], 'unsupported_grant_type');
});

check('token.grant.unknown-type', {
  ...TOKEN,
  title: 'an unknown grant_type answers 400 unsupported_grant_type',
  tags: ['error'],
  covers: ['3:POST /token:body:grant_type'],
}, async (context) => {
  const setup = tokenSetup(context);
  const answer = await setup.client.post(passwordGrant(setup, { grant_type: 'client_credentials' }));
  expectOAuthError(context.expect, answer, [400], 'unsupported_grant_type');
});

check('token.grant.wrong-password', {
  ...TOKEN,
  title: 'a password grant with a wrong password is refused: 400 invalid_grant (or 401 invalid_client)',
  spec: '3 §5.1',
  tags: ['error'],
  covers: ['3:POST /token:body:password'],
}, async (context) => {
  const setup = tokenSetup(context);
  const answer = await setup.client.post(passwordGrant(setup, { password: `${setup.user.password}-wrong` }));
  expectOAuthError(context.expect, answer, [400, 401], ['invalid_grant', 'invalid_client']);
});

check('token.grant.unknown-user', {
  ...TOKEN,
  title: 'a password grant for a user that does not exist is refused: 400 invalid_grant (or 401 invalid_client)',
  spec: '3 §5.1',
  tags: ['error'],
  covers: ['3:POST /token:body:username'],
}, async (context) => {
  const setup = tokenSetup(context);
  const answer = await setup.client.post(passwordGrant(setup, { username: context.make.uniqueName('nobody') }));
  expectOAuthError(context.expect, answer, [400, 401], ['invalid_grant', 'invalid_client']);
});
