/**
 * /api/v1.1/users/:username/emails/ (spec/3 §2.4, §4, §5): the list of addresses; a new address is
 * unverified and not primary; a second copy, or text that is no address, is 400; DELETE answers 204
 * with no body and the address is gone; the primary address cannot be deleted; an unknown address is
 * 404; bearer tokens need email_read to list and email_write to add or delete.
 */
import { check, type CheckMeta } from '../../harness/check.ts';
import { expectSpecTokenResponse, offlineRefreshToken, refreshGrant, tokenSetup } from '../token/token-steps.ts';
import { accountsSetup, addAddress, bearer, listAddresses, uniqueAddress } from './account-steps.ts';

const EMAILS = { spec: '3 §4', since: '1.18', requires: ['accounts-api'] } satisfies Partial<CheckMeta>;
const WITH_TOKENS = { ...EMAILS, requires: ['accounts-api', 'token-service'] } satisfies Partial<CheckMeta>;
const ENTRY = 'Fields: email (string), verified (boolean), primary (boolean).';
const LIST_ROW = '| GET /api/v1.1/users/:username/emails/ | none | 200 array of email entries | 200, 401, 403, 404 |';
const POST_ROW = '| POST /api/v1.1/users/:username/emails/ |';
const POST_STATUSES = '| 201 email entry | 201, 400, 401, 403, 404 |';
const DELETE_ROW = '| DELETE /api/v1.1/users/:username/emails/ | email (string, address to delete; the primary address cannot be deleted) | 204, empty body | 204, 400, 401, 403, 404 (user name or address does not exist) |';
const AUTH_REQUIRED = 'Accounts API: the Authorization header is required and is either HTTP Basic or an OAuth bearer token.';
const NO_CREDENTIALS = 'Invalid or missing credentials give 401.';
/** spec/3 §4 and §2.2: what expectSpecTokenResponse asserts of a 200 token answer */
const TOKEN_RESPONSE = [
  '| POST /token | Content-Type `application/x-www-form-urlencoded` | form fields of 2.1 | 200 `application/json` token response of 2.2 |',
  '| access_token | yes | opaque bearer token; clients must not parse it; sent in the Authorization header of later requests |',
  '| scope | yes | scope granted; the requested scope or a subset; always present (stricter than RFC 6749 section 4.2.2) |',
  '| expires_in | yes | seconds the token stays valid from issue; defaults to 60 when omitted; a token is never returned with less than 60 seconds to live |',
  '| issued_at | no | RFC 3339 UTC time of issue; when omitted the expiry counts from the end of the token exchange |',
];
const SAME_USER = 'the authenticated user must be the user whose data is requested or changed (403 otherwise).';
const STATUS_MEANINGS = 'Accounts API status codes are those of the table in 4: 400 validation error, 401 authentication error, 403 permission error, 404 unknown user name or address.';

check('accounts.emails.list', {
  ...EMAILS,
  title: 'GET emails answers 200 with an array of entries of email, verified and primary, at most one of them primary',
  spec: '3 §2.4, §4',
  quote: [ENTRY, LIST_ROW, 'the primary address cannot be deleted'],
  tags: ['schema'],
  covers: [
    '3:GET /api/v1.1/users/:username/emails/',
    '3:GET /api/v1.1/users/:username/emails/:header:Authorization',
    '3:GET /api/v1.1/users/:username/emails/:status:200',
  ],
}, async (context) => {
  const entries = await listAddresses(context, accountsSetup(context));
  context.expect(entries.filter((entry) => entry.primary).length, `primary addresses in ${JSON.stringify(entries)}`).toBeLessThanOrEqual(1);
});

check('accounts.emails.add', {
  ...EMAILS,
  title: 'POST an address answers 201 with it unverified and not primary, and the list shows it',
  spec: '3 §2.4, §4',
  quote: [ENTRY, 'A newly added address has verified false and primary false.', POST_ROW, POST_STATUSES, LIST_ROW],
  tags: ['state'],
  covers: [
    '3:POST /api/v1.1/users/:username/emails/',
    '3:POST /api/v1.1/users/:username/emails/:body:email',
    '3:POST /api/v1.1/users/:username/emails/:header:Authorization',
    '3:POST /api/v1.1/users/:username/emails/:header:Content-Type',
    '3:POST /api/v1.1/users/:username/emails/:status:201',
  ],
}, async (context) => {
  const setup = accountsSetup(context);
  const email = uniqueAddress(context);
  const answer = await addAddress(context, setup, email);
  context.expect(answer.status, `POST emails: ${answer.describe()}`).toBe(201);
  context.expect(answer.json(), 'the new entry').toMatchObject({ email, verified: false, primary: false });
  context.expect((await listAddresses(context, setup)).find((entry) => entry.email === email), 'the new address in the list').toMatchObject({ email, verified: false, primary: false });
});

for (const [name, email] of [
  ['no-at', 'shipshape.example.org'],
  ['no-domain', 'shipshape@'],
  ['spaces', 'ship shape@example.org'],
] as const) {
  check(`accounts.emails.add-invalid-${name}`, {
    ...EMAILS,
    title: `POST ${JSON.stringify(email)}, not an e-mail address, answers 400`,
    spec: '3 §4, §7.1',
    quote: [POST_ROW, 'email (string, address to add; a confirmation mail is not sent automatically, verification is separate)', POST_STATUSES, STATUS_MEANINGS],
    tags: ['error'],
    covers: ['3:POST /api/v1.1/users/:username/emails/:body:email', '3:POST /api/v1.1/users/:username/emails/:status:400'],
  }, async (context) => {
    const setup = accountsSetup(context);
    const answer = await addAddress(context, setup, email);
    context.expect(answer.status, `an invalid address: ${answer.describe()}`).toBe(400);
  });
}

check('accounts.emails.delete', {
  ...EMAILS,
  title: 'DELETE an address answers 204 with an empty body, and the list no longer shows it',
  spec: '3 §4',
  quote: [DELETE_ROW, LIST_ROW],
  tags: ['state'],
  covers: [
    '3:DELETE /api/v1.1/users/:username/emails/',
    '3:DELETE /api/v1.1/users/:username/emails/:body:email',
    '3:DELETE /api/v1.1/users/:username/emails/:header:Authorization',
    '3:DELETE /api/v1.1/users/:username/emails/:header:Content-Type',
    '3:DELETE /api/v1.1/users/:username/emails/:status:204',
  ],
}, async (context) => {
  const setup = accountsSetup(context);
  const email = uniqueAddress(context);
  const added = await addAddress(context, setup, email);
  if (added.status !== 201) throw new Error(`setup: could not add ${email}: ${added.describe()}`);
  const answer = await setup.client.send('DELETE', setup.username, 'emails', { auth: setup.basic, json: { email } });
  context.expect(answer.status, `DELETE emails: ${answer.describe()}`).toBe(204);
  context.expect(answer.text(), 'the body of a 204').toBe('');
  context.expect((await listAddresses(context, setup)).map((entry) => entry.email), 'the list after the DELETE').not.toContain(email);
});

check('accounts.emails.delete-primary', {
  ...EMAILS,
  title: 'DELETE the primary address is refused with 400 (validation) or 403 (permission), and it stays',
  spec: '3 §4, §7.1',
  quote: [DELETE_ROW, STATUS_MEANINGS, LIST_ROW],
  tags: ['error'],
  covers: ['3:DELETE /api/v1.1/users/:username/emails/:body:email', '3:DELETE /api/v1.1/users/:username/emails/:status:400'],
}, async (context) => {
  const setup = accountsSetup(context);
  const primary = (await listAddresses(context, setup)).find((entry) => entry.primary);
  if (!primary) throw new Error('setup: the user has no primary address');
  const answer = await setup.client.send('DELETE', setup.username, 'emails', { auth: setup.basic, json: { email: primary.email } });
  context.expect([400, 403], `DELETE the primary address: ${answer.describe()}`).toContain(answer.status);
  context.expect((await listAddresses(context, setup)).map((entry) => entry.email), 'the list after the refused DELETE').toContain(primary.email);
});

check('accounts.emails.delete-unknown', {
  ...EMAILS,
  title: 'DELETE an address the user does not have answers 404',
  spec: '3 §4, §7.1',
  quote: [DELETE_ROW, STATUS_MEANINGS],
  tags: ['error'],
  covers: ['3:DELETE /api/v1.1/users/:username/emails/:body:email', '3:DELETE /api/v1.1/users/:username/emails/:status:404'],
}, async (context) => {
  const setup = accountsSetup(context);
  const answer = await setup.client.send('DELETE', setup.username, 'emails', { auth: setup.basic, json: { email: uniqueAddress(context) } });
  context.expect(answer.status, `DELETE an unknown address: ${answer.describe()}`).toBe(404);
});

check('accounts.emails.unknown-user', {
  ...EMAILS,
  title: 'GET the emails of a user that does not exist, as another user, answers 404 (unknown user) or 403 (not the authenticated user)',
  spec: '3 §4, §5.4, §7.1',
  quote: [LIST_ROW, STATUS_MEANINGS, SAME_USER],
  tags: ['error'],
  covers: ['3:GET /api/v1.1/users/:username/emails/:status:404'],
}, async (context) => {
  const setup = accountsSetup(context);
  const answer = await setup.client.send('GET', context.make.uniqueName('nobody'), 'emails', { auth: setup.basic });
  context.expect([403, 404], `an unknown user: ${answer.describe()}`).toContain(answer.status);
});

check('accounts.emails.no-credentials', {
  ...EMAILS,
  title: 'GET the emails without an Authorization header answers 401',
  spec: '3 §4, §5.3, §5.4',
  quote: [LIST_ROW, AUTH_REQUIRED, NO_CREDENTIALS],
  tags: ['error'],
  covers: ['3:GET /api/v1.1/users/:username/emails/:status:401'],
}, async (context) => {
  const setup = accountsSetup(context);
  const answer = await setup.client.send('GET', setup.username, 'emails', { auth: 'none' });
  context.expect(answer.status, `no credentials: ${answer.describe()}`).toBe(401);
});

check('accounts.emails.add-no-credentials', {
  ...EMAILS,
  title: 'POST an address without an Authorization header answers 401, and the list does not show it',
  spec: '3 §4, §5.3, §5.4',
  quote: [POST_ROW, POST_STATUSES, AUTH_REQUIRED, NO_CREDENTIALS, LIST_ROW],
  tags: ['error'],
  covers: ['3:POST /api/v1.1/users/:username/emails/:status:401'],
}, async (context) => {
  const setup = accountsSetup(context);
  const email = uniqueAddress(context);
  const answer = await addAddress(context, setup, email, 'none');
  context.expect(answer.status, `POST emails without credentials: ${answer.describe()}`).toBe(401);
  context.expect((await listAddresses(context, setup)).map((entry) => entry.email), 'the list after the refused POST').not.toContain(email);
});

check('accounts.emails.add-unknown-user', {
  ...EMAILS,
  title: 'POST an address for a user that does not exist, as another user, answers 404 (unknown user) or 403 (not the authenticated user)',
  spec: '3 §4, §5.4, §7.1',
  quote: [POST_ROW, POST_STATUSES, STATUS_MEANINGS, SAME_USER],
  tags: ['error'],
  covers: ['3:POST /api/v1.1/users/:username/emails/:status:404'],
}, async (context) => {
  const setup = accountsSetup(context);
  const answer = await setup.client.send('POST', context.make.uniqueName('nobody'), 'emails', { auth: setup.basic, json: { email: uniqueAddress(context) } });
  context.expect([403, 404], `POST emails of an unknown user: ${answer.describe()}`).toContain(answer.status);
});

check('accounts.emails.delete-no-credentials', {
  ...EMAILS,
  title: 'DELETE an address without an Authorization header answers 401, and the address stays',
  spec: '3 §4, §5.3, §5.4',
  quote: [DELETE_ROW, AUTH_REQUIRED, NO_CREDENTIALS, LIST_ROW],
  tags: ['error'],
  covers: ['3:DELETE /api/v1.1/users/:username/emails/:status:401'],
}, async (context) => {
  const setup = accountsSetup(context);
  const email = uniqueAddress(context);
  const added = await addAddress(context, setup, email);
  if (added.status !== 201) throw new Error(`setup: could not add ${email}: ${added.describe()}`);
  const answer = await setup.client.send('DELETE', setup.username, 'emails', { auth: 'none', json: { email } });
  context.expect(answer.status, `DELETE emails without credentials: ${answer.describe()}`).toBe(401);
  context.expect((await listAddresses(context, setup)).map((entry) => entry.email), 'the list after the refused DELETE').toContain(email);
});

check('accounts.emails.delete-needs-email-write', {
  ...WITH_TOKENS,
  title: 'DELETE an address with a bearer token without email_write (email_read only) answers 403, and the address stays',
  spec: '3 §4, §5.4',
  quote: [DELETE_ROW, 'email_read for listing e-mails, email_write for adding and deleting e-mails; a missing scope gives 403.', LIST_ROW],
  tags: ['error'],
  covers: ['3:DELETE /api/v1.1/users/:username/emails/:header:Authorization', '3:DELETE /api/v1.1/users/:username/emails/:status:403'],
}, async (context) => {
  const setup = accountsSetup(context);
  const email = uniqueAddress(context);
  const added = await addAddress(context, setup, email);
  if (added.status !== 201) throw new Error(`setup: could not add ${email}: ${added.describe()}`);
  const answer = await setup.client.send('DELETE', setup.username, 'emails', { auth: await bearer(context, setup, ['email_read'], { needsGrant: false }), json: { email } });
  context.expect(answer.status, `DELETE emails with email_read only: ${answer.describe()}`).toBe(403);
  context.expect((await listAddresses(context, setup)).map((entry) => entry.email), 'the list after the refused DELETE').toContain(email);
});

check('accounts.emails.bearer-scopes', {
  ...WITH_TOKENS,
  title: 'bearer tokens: email_read lists but cannot add (403), email_write adds, profile_read alone cannot list (403)',
  spec: '3 §4, §5.3, §5.4',
  quote: [AUTH_REQUIRED, 'OAuth access tokens need the scope profile_read for GET user, profile_write for PATCH user, email_read for listing e-mails, email_write for adding and deleting e-mails; a missing scope gives 403.', LIST_ROW, POST_ROW, POST_STATUSES],
  tags: ['error', 'state'],
  covers: [
    '3:GET /api/v1.1/users/:username/emails/:header:Authorization',
    '3:POST /api/v1.1/users/:username/emails/:header:Authorization',
    '3:GET /api/v1.1/users/:username/emails/:status:200',
    '3:GET /api/v1.1/users/:username/emails/:status:403',
    '3:POST /api/v1.1/users/:username/emails/:status:201',
    '3:POST /api/v1.1/users/:username/emails/:status:403',
  ],
}, async (context) => {
  const setup = accountsSetup(context);
  const reading = await bearer(context, setup, ['email_read']);
  const listed = await setup.client.send('GET', setup.username, 'emails', { auth: reading });
  context.expect(listed.status, `GET emails with email_read: ${listed.describe()}`).toBe(200);
  const email = uniqueAddress(context);
  const refused = await addAddress(context, setup, email, reading);
  context.expect(refused.status, `POST emails with email_read only: ${refused.describe()}`).toBe(403);
  const added = await addAddress(context, setup, email, await bearer(context, setup, ['email_write']));
  context.expect(added.status, `POST emails with email_write: ${added.describe()}`).toBe(201);
  const profileOnly = await setup.client.send('GET', setup.username, 'emails', { auth: await bearer(context, setup, ['profile_read'], { needsGrant: false }) });
  context.expect(profileOnly.status, `GET emails with profile_read only: ${profileOnly.describe()}`).toBe(403);
});

check('accounts.emails.refresh-grant-subject', {
  ...WITH_TOKENS,
  title: "an access token from a refresh grant acts as the refresh token's user: it lists that user's addresses",
  spec: '3 §2.2, §4, §5.4',
  quote: ['used to get access tokens for the same subject with other scopes', ...TOKEN_RESPONSE, 'email_read for listing e-mails', LIST_ROW],
  tags: ['state'],
  covers: ['3:GET /api/v1.1/users/:username/emails/:header:Authorization', '3:POST /token:body:refresh_token'],
}, async (context) => {
  const setup = accountsSetup(context);
  const tokens = tokenSetup(context);
  const refreshToken = await offlineRefreshToken(context.expect, tokens);
  const refreshed = await tokens.client.post(refreshGrant(tokens, refreshToken, { scope: `account:${setup.username}:email_read` }));
  const body = expectSpecTokenResponse(context.expect, refreshed);
  const accessToken = body.access_token;
  // spec/3 gives no spelling for account scopes: a service that grants email_read under another spelling cannot be checked here
  if (!String(body.scope).split(' ').some((scope) => /^account:[^:]+:(?:[a-z_]+,)*email_read(?:,[a-z_]+)*$/.test(scope))) throw new Error(`setup: the refresh grant did not grant email_read asked for as account:${setup.username}:email_read: ${refreshed.describe()}`);
  const answer = await setup.client.send('GET', setup.username, 'emails', { auth: { bearer: String(accessToken) } });
  context.expect(answer.status, `GET emails with the refreshed token: ${answer.describe()}`).toBe(200);
});
