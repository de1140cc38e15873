/**
 * /api/v1.1/users/:username/emails/ (spec/3 §2.4, §4, §5): the list of addresses; a new address is
 * unverified and not primary; a second copy, or text that is no address, is 400; DELETE answers 204
 * with no body and the address is gone; the primary address cannot be deleted; an unknown address is
 * 404; bearer tokens need email_read to list and email_write to add or delete.
 */
import { check, type CheckMeta } from '../../harness/check.ts';
import type { TokenResponse } from '../../harness/client/token-client.ts';
import { offlineRefreshToken, refreshGrant, tokenSetup } from '../token/token-steps.ts';
import { accountsSetup, addAddress, bearer, listAddresses, uniqueAddress } from './account-steps.ts';

const EMAILS = { spec: '3 §4', since: '1.18', requires: ['accounts-api'] } satisfies Partial<CheckMeta>;
const WITH_TOKENS = { ...EMAILS, requires: ['accounts-api', 'token-service'] } satisfies Partial<CheckMeta>;

check('accounts.emails.list', {
  ...EMAILS,
  title: 'GET emails answers 200 with entries of email, verified and primary, exactly one of them primary',
  spec: '3 §2.4',
  tags: ['schema'],
  covers: [
    '3:GET /api/v1.1/users/:username/emails/',
    '3:GET /api/v1.1/users/:username/emails/:header:Authorization',
    '3:GET /api/v1.1/users/:username/emails/:status:200',
  ],
}, async (context) => {
  const entries = await listAddresses(context, accountsSetup(context));
  context.expect(entries.filter((entry) => entry.primary).length, `primary addresses in ${JSON.stringify(entries)}`).toBe(1);
});

check('accounts.emails.add', {
  ...EMAILS,
  title: 'POST an address answers 201 with it unverified and not primary, and the list shows it',
  spec: '3 §2.4',
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
  context.expect(answer.json(), 'the new entry').toEqual({ email, verified: false, primary: false });
  context.expect((await listAddresses(context, setup)).find((entry) => entry.email === email), 'the new address in the list').toEqual({ email, verified: false, primary: false });
});

for (const [name, email] of [
  ['no-at', 'shipshape.example.org'],
  ['no-domain', 'shipshape@'],
  ['spaces', 'ship shape@example.org'],
] as const) {
  check(`accounts.emails.add-invalid-${name}`, {
    ...EMAILS,
    title: `POST ${JSON.stringify(email)}, not an e-mail address, answers 400`,
    spec: '3 §7.1',
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
  title: 'DELETE the primary address answers 400 (spec lists 400 for this call), and it stays',
  tags: ['error'],
  covers: ['3:DELETE /api/v1.1/users/:username/emails/:body:email', '3:DELETE /api/v1.1/users/:username/emails/:status:400'],
}, async (context) => {
  const setup = accountsSetup(context);
  const primary = (await listAddresses(context, setup)).find((entry) => entry.primary);
  if (!primary) throw new Error('setup: the user has no primary address');
  const answer = await setup.client.send('DELETE', setup.username, 'emails', { auth: setup.basic, json: { email: primary.email } });
  context.expect(answer.status, `DELETE the primary address: ${answer.describe()}`).toBe(400);
  context.expect((await listAddresses(context, setup)).map((entry) => entry.email), 'the list after the refused DELETE').toContain(primary.email);
});

check('accounts.emails.delete-unknown', {
  ...EMAILS,
  title: 'DELETE an address the user does not have answers 404',
  spec: '3 §7.1',
  tags: ['error'],
  covers: ['3:DELETE /api/v1.1/users/:username/emails/:body:email', '3:DELETE /api/v1.1/users/:username/emails/:status:404'],
}, async (context) => {
  const setup = accountsSetup(context);
  const answer = await setup.client.send('DELETE', setup.username, 'emails', { auth: setup.basic, json: { email: uniqueAddress(context) } });
  context.expect(answer.status, `DELETE an unknown address: ${answer.describe()}`).toBe(404);
});

check('accounts.emails.unknown-user', {
  ...EMAILS,
  title: 'GET the emails of a user that does not exist answers 404',
  spec: '3 §7.1',
  tags: ['error'],
  covers: ['3:GET /api/v1.1/users/:username/emails/:status:404'],
}, async (context) => {
  const setup = accountsSetup(context);
  const answer = await setup.client.send('GET', context.make.uniqueName('nobody'), 'emails', { auth: setup.basic });
  context.expect(answer.status, `an unknown user: ${answer.describe()}`).toBe(404);
});

check('accounts.emails.no-credentials', {
  ...EMAILS,
  title: 'GET the emails without an Authorization header answers 401',
  spec: '3 §5.4',
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
  spec: '3 §5.4',
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
  title: 'POST an address for a user that does not exist answers 404',
  spec: '3 §7.1',
  tags: ['error'],
  covers: ['3:POST /api/v1.1/users/:username/emails/:status:404'],
}, async (context) => {
  const setup = accountsSetup(context);
  const answer = await setup.client.send('POST', context.make.uniqueName('nobody'), 'emails', { auth: setup.basic, json: { email: uniqueAddress(context) } });
  context.expect(answer.status, `POST emails of an unknown user: ${answer.describe()}`).toBe(404);
});

check('accounts.emails.delete-no-credentials', {
  ...EMAILS,
  title: 'DELETE an address without an Authorization header answers 401, and the address stays',
  spec: '3 §5.4',
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
  spec: '3 §5.4',
  tags: ['error'],
  covers: ['3:DELETE /api/v1.1/users/:username/emails/:header:Authorization', '3:DELETE /api/v1.1/users/:username/emails/:status:403'],
}, async (context) => {
  const setup = accountsSetup(context);
  const email = uniqueAddress(context);
  const added = await addAddress(context, setup, email);
  if (added.status !== 201) throw new Error(`setup: could not add ${email}: ${added.describe()}`);
  const answer = await setup.client.send('DELETE', setup.username, 'emails', { auth: await bearer(context, setup, ['email_read']), json: { email } });
  context.expect(answer.status, `DELETE emails with email_read only: ${answer.describe()}`).toBe(403);
  context.expect((await listAddresses(context, setup)).map((entry) => entry.email), 'the list after the refused DELETE').toContain(email);
});

check('accounts.emails.bearer-scopes', {
  ...WITH_TOKENS,
  title: 'bearer tokens: email_read lists but cannot add (403), email_write adds, profile_read alone cannot list (403)',
  spec: '3 §5.4',
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
  const profileOnly = await setup.client.send('GET', setup.username, 'emails', { auth: await bearer(context, setup, ['profile_read']) });
  context.expect(profileOnly.status, `GET emails with profile_read only: ${profileOnly.describe()}`).toBe(403);
});

check('accounts.emails.refresh-grant-subject', {
  ...WITH_TOKENS,
  title: "an access token from a refresh grant acts as the refresh token's user: it lists that user's addresses",
  spec: '3 §2.2',
  tags: ['state'],
  covers: ['3:GET /api/v1.1/users/:username/emails/:header:Authorization', '3:POST /token:body:refresh_token'],
}, async (context) => {
  const setup = accountsSetup(context);
  const tokens = tokenSetup(context);
  const refreshToken = await offlineRefreshToken(context.expect, tokens);
  const refreshed = await tokens.client.post(refreshGrant(tokens, refreshToken, { scope: `account:${setup.username}:email_read` }));
  const accessToken = refreshed.status === 200 ? refreshed.json<TokenResponse>().access_token : undefined;
  context.expect(typeof accessToken, `the refresh grant's access token: ${refreshed.describe()}`).toBe('string');
  const answer = await setup.client.send('GET', setup.username, 'emails', { auth: { bearer: String(accessToken) } });
  context.expect(answer.status, `GET emails with the refreshed token: ${answer.describe()}`).toBe(200);
});
