/**
 * GET and PATCH /api/v1.1/users/:username/ (spec/3 §2.3, §4, §5): the user resource with every field
 * of §2.3, date_joined ISO 8601 with microseconds and Z; Basic or a bearer token with profile_read
 * reads it, profile_write changes it; 401 without or with bad credentials, 404 for an unknown user,
 * 403 for another user or a token without the scope, 400 for a change that breaks a rule. The run
 * puts back the profile it found (harness/run/account-services.ts).
 */
import { check, type CheckMeta } from '../../harness/check.ts';
import { accountsSetup, bearer } from './account-steps.ts';

const USER = { spec: '3 §4', since: '1.18', requires: ['accounts-api'] } satisfies Partial<CheckMeta>;
const WITH_TOKENS = { ...USER, requires: ['accounts-api', 'token-service'] } satisfies Partial<CheckMeta>;
const GET_ROW = '| GET /api/v1.1/users/:username/ | none | 200 user | 200, 401, 403, 404 |';
const PATCH_ROW = '| PATCH /api/v1.1/users/:username/ | optional string fields full_name, location, company, profile_url, avatar_email | 200 updated user | 200, 400 (validation), 401, 403, 404 |';
const AUTH_REQUIRED = 'Accounts API: the Authorization header is required and is either HTTP Basic or an OAuth bearer token.';
const NO_CREDENTIALS = 'Invalid or missing credentials give 401.';
const SAME_USER = 'the authenticated user must be the user whose data is requested or changed (403 otherwise).';
const SCOPES = 'OAuth access tokens need the scope profile_read for GET user, profile_write for PATCH user, email_read for listing e-mails, email_write for adding and deleting e-mails; a missing scope gives 403.';
const STATUS_MEANINGS = 'Accounts API status codes are those of the table in 4: 400 validation error, 401 authentication error, 403 permission error, 404 unknown user name or address.';
/** spec/3 §2.3: ISO 8601 with microseconds and Z */
const MICROSECOND_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const USER_FIELD_TYPES = {
  id: 'number', username: 'string', url: 'string', date_joined: 'string', type: 'string', full_name: 'string',
  location: 'string', company: 'string', profile_url: 'string', avatar_url: 'string', email: 'string', is_active: 'boolean',
};

check('accounts.user.get', {
  ...USER,
  title: 'GET the user with Basic credentials answers 200 with every field of spec/3 §2.3, date_joined with microseconds and Z',
  spec: '3 §2.3, §4, §5.3',
  quote: ['| id | integer | |', '| username | string | |', '| url | string | URL of the user resource |', '| date_joined | string | timestamp, ISO 8601 with microseconds and Z |', '| type | string | e.g. User |', '| full_name | string | |', '| location | string | |', '| company | string | |', '| profile_url | string | |', '| avatar_url | string | |', '| email | string | |', '| is_active | boolean | |', GET_ROW, AUTH_REQUIRED],
  tags: ['schema'],
  covers: ['3:GET /api/v1.1/users/:username/', '3:GET /api/v1.1/users/:username/:header:Authorization', '3:GET /api/v1.1/users/:username/:status:200'],
}, async (context) => {
  const setup = accountsSetup(context);
  const answer = await setup.client.send('GET', setup.username, 'user', { auth: setup.basic });
  context.expect(answer.status, `GET user: ${answer.describe()}`).toBe(200);
  const user = answer.json<Record<string, unknown>>();
  const types = Object.fromEntries(Object.keys(USER_FIELD_TYPES).map((field) => [field, typeof user[field]]));
  context.expect(types, `field types of the user: ${answer.describe()}`).toEqual(USER_FIELD_TYPES);
  context.expect(Number.isInteger(user.id), 'id must be an integer').toBe(true);
  context.expect(user.username, 'username').toBe(setup.username);
  context.expect(String(user.date_joined), 'date_joined: ISO 8601 with microseconds and Z').toMatch(MICROSECOND_TIMESTAMP);
});

check('accounts.user.get-bearer', {
  ...WITH_TOKENS,
  title: 'GET the user with a bearer token carrying profile_read answers 200',
  spec: '3 §2.3, §4, §5.3, §5.4',
  quote: [AUTH_REQUIRED, SCOPES, GET_ROW, '| username | string | |'],
  tags: ['state'],
  covers: ['3:GET /api/v1.1/users/:username/:header:Authorization', '3:GET /api/v1.1/users/:username/:status:200'],
}, async (context) => {
  const setup = accountsSetup(context);
  const answer = await setup.client.send('GET', setup.username, 'user', { auth: await bearer(context, setup, ['profile_read']) });
  context.expect(answer.status, `GET user with a profile_read token: ${answer.describe()}`).toBe(200);
  context.expect(answer.json<{ username?: unknown }>().username, 'username').toBe(setup.username);
});

for (const [name, auth, what] of [
  ['no-credentials', 'none', 'no Authorization header'],
  ['garbage-bearer', { bearer: 'shipshape.not.a-token' }, 'a bearer token the token service never issued'],
  ['unknown-scheme', { header: 'Digest username="shipshape"' }, 'an Authorization scheme other than Basic or Bearer'],
] as const) {
  check(`accounts.user.${name}`, {
    ...USER,
    title: `GET the user with ${what} answers 401`,
    spec: '3 §4, §5.3, §5.4',
    quote: [GET_ROW, AUTH_REQUIRED, NO_CREDENTIALS],
    tags: ['error'],
    covers: ['3:GET /api/v1.1/users/:username/:header:Authorization', '3:GET /api/v1.1/users/:username/:status:401'],
  }, async (context) => {
    const setup = accountsSetup(context);
    const answer = await setup.client.send('GET', setup.username, 'user', { auth });
    context.expect(answer.status, `${what}: ${answer.describe()}`).toBe(401);
  });
}

check('accounts.user.patch-no-credentials', {
  ...USER,
  title: 'PATCH the user without an Authorization header answers 401 and changes nothing',
  spec: '3 §4, §5.3, §5.4',
  quote: [PATCH_ROW, AUTH_REQUIRED, NO_CREDENTIALS, GET_ROW],
  tags: ['error'],
  covers: ['3:PATCH /api/v1.1/users/:username/:status:401'],
}, async (context) => {
  const setup = accountsSetup(context);
  const location = `Nowhere ${context.make.uniqueName('loc')}`;
  const answer = await setup.client.send('PATCH', setup.username, 'user', { auth: 'none', json: { location } });
  context.expect(answer.status, `PATCH without credentials: ${answer.describe()}`).toBe(401);
  const user = await setup.client.send('GET', setup.username, 'user', { auth: setup.basic });
  context.expect(user.json<{ location?: unknown }>().location, `location after the refused PATCH: ${user.describe()}`).not.toBe(location);
});

check('accounts.user.wrong-password', {
  ...USER,
  title: 'GET the user with a wrong Basic password answers 401',
  spec: '3 §4, §5.3, §5.4',
  quote: [GET_ROW, AUTH_REQUIRED, NO_CREDENTIALS],
  tags: ['error'],
  covers: ['3:GET /api/v1.1/users/:username/:header:Authorization', '3:GET /api/v1.1/users/:username/:status:401'],
}, async (context) => {
  const setup = accountsSetup(context);
  const user = setup.services.user ?? { username: setup.username, password: '' };
  const answer = await setup.client.send('GET', setup.username, 'user', { auth: { basic: { username: user.username, password: `${user.password}-wrong` } } });
  context.expect(answer.status, `a wrong password: ${answer.describe()}`).toBe(401);
});

check('accounts.user.unknown', {
  ...USER,
  title: 'GET a user that does not exist, as another user, answers 404 (unknown user) or 403 (not the authenticated user)',
  spec: '3 §4, §5.4, §7.1',
  quote: [GET_ROW, STATUS_MEANINGS, SAME_USER],
  tags: ['error'],
  covers: ['3:GET /api/v1.1/users/:username/:status:404'],
}, async (context) => {
  const setup = accountsSetup(context);
  const answer = await setup.client.send('GET', context.make.uniqueName('nobody'), 'user', { auth: setup.basic });
  context.expect([403, 404], `an unknown user: ${answer.describe()}`).toContain(answer.status);
});

check('accounts.user.patch-unknown', {
  ...USER,
  title: 'PATCH a user that does not exist, as another user, answers 404 (unknown user) or 403 (not the authenticated user)',
  spec: '3 §4, §5.4, §7.1',
  quote: [PATCH_ROW, STATUS_MEANINGS, SAME_USER],
  tags: ['error'],
  covers: ['3:PATCH /api/v1.1/users/:username/:status:404'],
}, async (context) => {
  const setup = accountsSetup(context);
  const answer = await setup.client.send('PATCH', context.make.uniqueName('nobody'), 'user', { auth: setup.basic, json: { location: 'Nowhere' } });
  context.expect([403, 404], `PATCH an unknown user: ${answer.describe()}`).toContain(answer.status);
});

check('accounts.user.other-user', {
  ...USER,
  title: "GET another user's resource answers 403: the caller must be the user",
  spec: '3 §4, §5.4',
  quote: [SAME_USER, GET_ROW, PATCH_ROW, '| GET /api/v1.1/users/:username/emails/ | none | 200 array of email entries | 200, 401, 403, 404 |'],
  requires: ['accounts-api', 'other-user'],
  tags: ['error'],
  covers: ['3:GET /api/v1.1/users/:username/:status:403'],
}, async (context) => {
  const setup = accountsSetup(context);
  const other = setup.services.otherUsername ?? '';
  for (const [method, resource] of [['GET', 'user'], ['PATCH', 'user'], ['GET', 'emails']] as const) {
    const answer = await setup.client.send(method, other, resource, { auth: setup.basic, ...(method === 'PATCH' ? { json: { location: 'Elsewhere' } } : {}) });
    context.expect(answer.status, `${method} ${resource} of ${other} as ${setup.username}: ${answer.describe()}`).toBe(403);
  }
});

check('accounts.user.get-needs-profile-read', {
  ...WITH_TOKENS,
  title: 'GET the user with a bearer token without profile_read (email_read only) answers 403',
  spec: '3 §4, §5.4',
  quote: [SCOPES, GET_ROW],
  tags: ['error'],
  covers: ['3:GET /api/v1.1/users/:username/:status:403'],
}, async (context) => {
  const setup = accountsSetup(context);
  const answer = await setup.client.send('GET', setup.username, 'user', { auth: await bearer(context, setup, ['email_read'], { needsGrant: false }) });
  context.expect(answer.status, `a token with email_read only: ${answer.describe()}`).toBe(403);
});

check('accounts.user.patch', {
  ...USER,
  title: 'PATCH full_name, location, company and profile_url answers 200 with the user changed, and a later GET shows the change',
  spec: '3 §1, §4',
  quote: [PATCH_ROW, GET_ROW, 'The accounts API reads and updates a user\'s profile and manages the user\'s e-mail addresses.'],
  tags: ['state'],
  covers: [
    '3:PATCH /api/v1.1/users/:username/',
    '3:PATCH /api/v1.1/users/:username/:body:full_name',
    '3:PATCH /api/v1.1/users/:username/:body:location',
    '3:PATCH /api/v1.1/users/:username/:body:company',
    '3:PATCH /api/v1.1/users/:username/:body:profile_url',
    '3:PATCH /api/v1.1/users/:username/:header:Authorization',
    '3:PATCH /api/v1.1/users/:username/:header:Content-Type',
    '3:PATCH /api/v1.1/users/:username/:status:200',
  ],
}, async (context) => {
  const setup = accountsSetup(context);
  const mark = context.make.uniqueName('profile');
  const changes = { full_name: `Shipshape ${mark}`, location: `Dock ${mark}`.slice(0, 60), company: 'Shipshape checks', profile_url: `https://example.org/${mark}` };
  const answer = await setup.client.send('PATCH', setup.username, 'user', { auth: setup.basic, json: changes });
  context.expect(answer.status, `PATCH user: ${answer.describe()}`).toBe(200);
  const user = answer.json<Record<string, unknown>>();
  context.expect({ full_name: user.full_name, location: user.location, company: user.company, profile_url: user.profile_url }, 'the updated user').toEqual(changes);
  const read = await setup.client.send('GET', setup.username, 'user', { auth: setup.basic });
  context.expect(read.status, `GET user after the PATCH: ${read.describe()}`).toBe(200);
  const stored = read.json<Record<string, unknown>>();
  context.expect({ full_name: stored.full_name, location: stored.location, company: stored.company, profile_url: stored.profile_url }, 'the user read after the PATCH').toEqual(changes);
});

check('accounts.user.patch-bearer', {
  ...WITH_TOKENS,
  title: 'PATCH with a bearer token carrying profile_write answers 200; with profile_read only, 403',
  spec: '3 §4, §5.3, §5.4',
  quote: [AUTH_REQUIRED, SCOPES, PATCH_ROW],
  tags: ['state', 'error'],
  covers: [
    '3:PATCH /api/v1.1/users/:username/:header:Authorization',
    '3:PATCH /api/v1.1/users/:username/:status:200',
    '3:PATCH /api/v1.1/users/:username/:status:403',
  ],
}, async (context) => {
  const setup = accountsSetup(context);
  const company = `Shipshape ${context.make.uniqueName('co')}`;
  const readOnly = await setup.client.send('PATCH', setup.username, 'user', { auth: await bearer(context, setup, ['profile_read'], { needsGrant: false }), json: { company } });
  context.expect(readOnly.status, `PATCH with a profile_read token: ${readOnly.describe()}`).toBe(403);
  const writing = await setup.client.send('PATCH', setup.username, 'user', { auth: await bearer(context, setup, ['profile_write']), json: { company } });
  context.expect(writing.status, `PATCH with a profile_write token: ${writing.describe()}`).toBe(200);
  context.expect(writing.json<{ company?: unknown }>().company, 'company after the PATCH').toBe(company);
});

// avatar_email is one of the "optional string fields" and nothing more: a server may take any string (200) or check it is an address (400)
for (const [name, body, rule, statuses] of [
  ['not-a-string', { location: 42 }, 'a location that is a number', [400]],
  ['bad-avatar-email', { avatar_email: 'not-an-address' }, 'an avatar_email that is not an address', [200, 400]],
] as const) {
  check(`accounts.user.patch-invalid-${name}`, {
    ...USER,
    title: `PATCH with ${rule} answers ${statuses.join(' or ')}`,
    spec: '3 §4, §7.1',
    quote: [PATCH_ROW, STATUS_MEANINGS],
    tags: ['error'],
    covers: [...Object.keys(body).map((field) => `3:PATCH /api/v1.1/users/:username/:body:${field}`), '3:PATCH /api/v1.1/users/:username/:status:400'],
  }, async (context) => {
    const setup = accountsSetup(context);
    const answer = await setup.client.send('PATCH', setup.username, 'user', { auth: setup.basic, json: body });
    context.expect([...statuses], `${rule}: ${answer.describe()}`).toContain(answer.status);
  });
}
