/**
 * Scopes (spec/3 §2.1, §2.2): a scope list is granted as the requested scopes or a subset, never more;
 * `scope` is always in the answer, empty when nothing is granted. The spec gives scopes only by the
 * example `repository:<name>:<actions>`, so the spec checks ask for such scopes only; Docker's scope
 * grammar (names with a registry `host:port`, a `(class)`, the registry and account types, 400
 * invalid_scope for a scope that is not `type[(class)]:name:actions`) is docker-level. Property
 * checks: any subset of a request is granted within it (and, docker-level, within what the whole
 * request got); scope lists with awkward names survive form encoding.
 */
import fc from 'fast-check';
import { check, type CheckContext, type CheckMeta } from '../../harness/check.ts';
import { assertProperty } from '../../harness/property-check.ts';
import { formatScopeList, parseScopeList, scopesBeyond, type Scope } from '../../protocol/scope-list.ts';
import { expectOAuthError, expectSpecTokenResponse, offlineRefreshToken, passwordGrant, refreshGrant, type TokenSetup, tokenSetup } from './token-steps.ts';

const SCOPES = { spec: '3 §2.1', since: '1.18', requires: ['token-service'] } satisfies Partial<CheckMeta>;
/** Docker's scope grammar (distribution's token protocol): spec/3 gives only an example */
const DOCKER = { spec: '3 §2.1, §2.2', level: 'docker', seen: 'dockerd 20.10.24', since: '1.18', requires: ['token-service'] } satisfies Partial<CheckMeta>;
const PROPERTY_RUNS = 25;
/** spec/3 §4 and §2.2: what expectSpecTokenResponse asserts of every 200 answer */
const TOKEN_RESPONSE = [
  '| POST /token | Content-Type `application/x-www-form-urlencoded` | form fields of 2.1 | 200 `application/json` token response of 2.2 |',
  '| access_token | yes | opaque bearer token; clients must not parse it; sent in the Authorization header of later requests |',
  '| scope | yes | scope granted; the requested scope or a subset; always present (stricter than RFC 6749 section 4.2.2) |',
  '| expires_in | yes | seconds the token stays valid from issue; defaults to 60 when omitted; a token is never returned with less than 60 seconds to live |',
  '| issued_at | no | RFC 3339 UTC time of issue; when omitted the expiry counts from the end of the token exchange |',
];
const SCOPE_FIELD = '| scope | no | resource requested, e.g. `repository:<name>:<actions>`; specified once, may hold several scopes in scope-list form;';

/**
 * What the token service grants the run's user for `requested`, parsed: through a password grant, or
 * through a refresh grant when a refresh token is given (property checks ask many times, and a refresh
 * grant skips the password's deliberately slow hash). The answer must be a well-formed token response.
 */
async function granted(context: CheckContext, setup: TokenSetup, requested: string, refreshToken?: string): Promise<Scope[]> {
  return (await grantedUnlessRefused(context, setup, requested, refreshToken, false)) ?? [];
}

/** As `granted`, but a refusal (any status but 200) is undefined when `refusalAllowed`. */
async function grantedUnlessRefused(context: CheckContext, setup: TokenSetup, requested: string, refreshToken: string | undefined, refusalAllowed: boolean): Promise<Scope[] | undefined> {
  const fields = refreshToken === undefined
    ? passwordGrant(setup, { scope: requested })
    : refreshGrant(setup, refreshToken, { scope: requested });
  const answer = await setup.client.post(fields);
  if (refusalAllowed && answer.status !== 200) return undefined;
  const body = expectSpecTokenResponse(context.expect, answer);
  try {
    return parseScopeList(String(body.scope));
  } catch (error) {
    context.expect.fail(`the granted scope is not a scope list (${(error as Error).message}): ${answer.describe()}`);
    throw error;
  }
}

/** Repository scopes of the spec's example form a user may or may not have: their own, a library one, another user's. */
function specRequest(username: string): Scope[] {
  return [
    { type: 'repository', name: `${username}/shipshape-app`, actions: ['pull', 'push'] },
    { type: 'repository', name: 'library/busybox', actions: ['pull'] },
    { type: 'repository', name: 'shipshape-nobody/secret', actions: ['pull', 'push'] },
  ];
}

/** Scopes of Docker's grammar besides: one behind a registry host:port, a class, the registry catalog, the user's account. */
function dockerRequest(username: string): Scope[] {
  return [
    { type: 'repository', name: `${username}/shipshape-app`, actions: ['pull', 'push'] },
    { type: 'repository', name: 'library/busybox', actions: ['pull'] },
    { type: 'repository', name: `localhost:5000/${username}/shipshape-app`, actions: ['pull'] },
    { type: 'repository', class: 'plugin', name: `${username}/shipshape-plugin`, actions: ['pull'] },
    { type: 'repository', name: 'shipshape-nobody/secret', actions: ['pull', 'push', 'delete'] },
    { type: 'registry', name: 'catalog', actions: ['*'] },
    { type: 'account', name: username, actions: ['profile_read', 'email_read'] },
  ];
}

check('token.scope.subset', {
  ...SCOPES,
  title: 'the granted scope is the requested scope list or a subset of it, never more',
  spec: '3 §2.1, §2.2, §4',
  quote: [SCOPE_FIELD, ...TOKEN_RESPONSE],
  tags: ['state'],
  covers: ['3:POST /token:body:scope'],
}, async (context) => {
  const setup = tokenSetup(context);
  const requested = specRequest(setup.user.username);
  const beyond = scopesBeyond(await granted(context, setup, formatScopeList(requested)), requested);
  context.expect(beyond, `granted beyond the request ${formatScopeList(requested)}`).toEqual([]);
});

check('token.scope.subset-docker-grammar', {
  ...DOCKER,
  title: 'a request of Docker\'s scope grammar (host:port names, a (class), registry and account types, action *) answers 200 granting within it',
  tags: ['state'],
  covers: ['3:POST /token:body:scope'],
}, async (context) => {
  const setup = tokenSetup(context);
  const requested = dockerRequest(setup.user.username);
  const beyond = scopesBeyond(await granted(context, setup, formatScopeList(requested)), requested);
  context.expect(beyond, `granted beyond the request ${formatScopeList(requested)}`).toEqual([]);
});

check('token.scope.empty', {
  ...SCOPES,
  title: 'a token request without scope answers 200 with scope present and empty',
  spec: '3 §2.1, §2.2, §4',
  quote: ['| scope | no |', ...TOKEN_RESPONSE],
  tags: ['schema'],
  covers: ['3:POST /token:body:scope'],
}, async (context) => {
  const setup = tokenSetup(context);
  const answer = await setup.client.post(passwordGrant(setup));
  const body = expectSpecTokenResponse(context.expect, answer);
  context.expect(body.scope, `nothing was requested, so nothing may be granted: ${answer.describe()}`).toBe('');
});

check('token.scope.host-port-name', {
  ...DOCKER,
  title: 'a scope whose name holds a registry host:port is taken as one name: granted within the request',
  tags: ['state'],
  covers: ['3:POST /token:body:scope'],
}, async (context) => {
  const setup = tokenSetup(context);
  const requested: Scope[] = [{ type: 'repository', name: `127.0.0.1:5000/${setup.user.username}/shipshape-app`, actions: ['pull'] }];
  const beyond = scopesBeyond(await granted(context, setup, formatScopeList(requested)), requested);
  context.expect(beyond, `granted beyond the request ${formatScopeList(requested)}`).toEqual([]);
});

for (const [name, scope] of [
  ['no-actions', 'repository:shipshape/app'],
  ['bad-type', 'Repository!:shipshape/app:pull'],
  ['empty-name', 'repository::pull'],
] as const) {
  check(`token.scope.invalid-${name}`, {
    ...DOCKER,
    spec: '3 §2.1, §4',
    title: `a scope that is not type[(class)]:name:actions (${scope}) answers 400 invalid_scope`,
    tags: ['error'],
    covers: ['3:POST /token:body:scope'],
  }, async (context) => {
    const setup = tokenSetup(context);
    const answer = await setup.client.post(passwordGrant(setup, { scope }));
    expectOAuthError(context.expect, answer, [400], 'invalid_scope');
  });
}

check('token.scope.subset-property', {
  ...SCOPES,
  title: 'any subset of a request is granted within the request',
  spec: '3 §2.1, §2.2, §4',
  quote: [SCOPE_FIELD, ...TOKEN_RESPONSE],
  tags: ['property'],
  covers: ['3:POST /token:body:scope'],
}, async (context) => {
  const setup = tokenSetup(context);
  const all = specRequest(setup.user.username);
  const refreshToken = await offlineRefreshToken(context.expect, setup);
  const subsets = fc.subarray(all.flatMap((scope) => scope.actions.map((action) => ({ ...scope, actions: [action] }))), { minLength: 1 });
  await assertProperty(context, fc.asyncProperty(subsets, async (subset) => {
    const got = await granted(context, setup, formatScopeList(subset), refreshToken);
    context.expect(scopesBeyond(got, subset), `granted beyond the request ${formatScopeList(subset)}`).toEqual([]);
  }), PROPERTY_RUNS);
});

check('token.scope.subset-monotone-property', {
  ...DOCKER,
  title: 'any subset of a request of Docker\'s scope grammar is granted within the request and within what the whole request got',
  tags: ['property'],
  covers: ['3:POST /token:body:scope'],
}, async (context) => {
  // spec/3 §2.2 bounds a grant by its request only: that a part never gets more than the whole (no all-or-nothing) is Docker's token servers'.
  const setup = tokenSetup(context);
  const all = dockerRequest(setup.user.username);
  const refreshToken = await offlineRefreshToken(context.expect, setup);
  const grantedForAll = await granted(context, setup, formatScopeList(all), refreshToken);
  const subsets = fc.subarray(all.flatMap((scope) => scope.actions.map((action) => ({ ...scope, actions: [action] }))), { minLength: 1 });
  await assertProperty(context, fc.asyncProperty(subsets, async (subset) => {
    const got = await granted(context, setup, formatScopeList(subset), refreshToken);
    context.expect(scopesBeyond(got, subset), `granted beyond the request ${formatScopeList(subset)}`).toEqual([]);
    context.expect(scopesBeyond(got, grantedForAll), `a subset got more than the whole request (${formatScopeList(grantedForAll)})`).toEqual([]);
  }), PROPERTY_RUNS);
});

/** Resource names with the characters form encoding must carry: `+`, `%`, `&`, `=`, `/`, `:`, `.`. */
const awkwardName = fc
  .array(fc.constantFrom('a', 'b', '0', '-', '_', '.', '+', '%', '&', '=', '/', ':', '@'), { minLength: 1, maxLength: 12 })
  .map((chars) => `shipshape${chars.join('')}/shared`);

check('token.scope.form-encoding-property', {
  ...SCOPES,
  title: 'scope lists with +, %, &, = and : in names survive form encoding: what is granted (if the request is not refused) lies within what was sent',
  spec: '3 §2.1, §2.2, §4',
  quote: [SCOPE_FIELD, ...TOKEN_RESPONSE],
  tags: ['property'],
  covers: ['3:POST /token:body:scope'],
}, async (context) => {
  const setup = tokenSetup(context);
  const refreshToken = await offlineRefreshToken(context.expect, setup);
  const scopes = fc.array(fc.record({ type: fc.constant('repository'), name: awkwardName, actions: fc.subarray(['pull', 'push'], { minLength: 1 }) }), { minLength: 1, maxLength: 4 });
  await assertProperty(context, fc.asyncProperty(scopes, async (requested) => {
    // the spec defines no name syntax: a server may refuse such names (any status but 200), but what it grants must lie within the request
    const got = await grantedUnlessRefused(context, setup, formatScopeList(requested), refreshToken, true);
    if (got !== undefined) context.expect(scopesBeyond(got, requested), `granted beyond the request ${formatScopeList(requested)}`).toEqual([]);
  }), PROPERTY_RUNS);
});
