/**
 * Scopes (spec/3 §2.1, §2.2): a scope list is granted as the requested scopes or a subset, never more;
 * `scope` is always in the answer, empty when nothing is granted; names may hold `host:port`; a list
 * that is not `type[(class)]:name:actions` is 400 invalid_scope. Two property checks: any subset of a
 * request is granted within what the whole request got, and scope lists survive form encoding.
 */
import fc from 'fast-check';
import { check, type CheckContext, type CheckMeta } from '../../harness/check.ts';
import { assertProperty } from '../../harness/property-check.ts';
import { formatScopeList, parseScopeList, scopesBeyond, type Scope } from '../../harness/scope-list.ts';
import { expectOAuthError, expectTokenResponse, offlineRefreshToken, passwordGrant, refreshGrant, type TokenSetup, tokenSetup } from './token-steps.ts';

const SCOPES = { spec: '3 §2.1', since: '1.18', requires: ['token-service'] } satisfies Partial<CheckMeta>;
const PROPERTY_RUNS = 25;

/**
 * What the token service grants the run's user for `requested`, parsed: through a password grant, or
 * through a refresh grant when a refresh token is given (property checks ask many times, and a refresh
 * grant skips the password's deliberately slow hash). The answer must be a well-formed token response.
 */
async function granted(context: CheckContext, setup: TokenSetup, requested: string, refreshToken?: string): Promise<Scope[]> {
  const fields = refreshToken === undefined
    ? passwordGrant(setup, { scope: requested })
    : refreshGrant(setup, refreshToken, { scope: requested });
  const answer = await setup.client.post(fields);
  const body = expectTokenResponse(context.expect, answer);
  try {
    return parseScopeList(String(body.scope));
  } catch (error) {
    context.expect.fail(`the granted scope is not a scope list (${(error as Error).message}): ${answer.describe()}`);
    throw error;
  }
}

/** Scopes a user may or may not have: their own repositories, others', one behind a registry host:port, the user's account. */
function sampleRequest(username: string): Scope[] {
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
  spec: '3 §2.2',
  tags: ['state'],
  covers: ['3:POST /token:body:scope'],
}, async (context) => {
  const setup = tokenSetup(context);
  const requested = sampleRequest(setup.user.username);
  const beyond = scopesBeyond(await granted(context, setup, formatScopeList(requested)), requested);
  context.expect(beyond, `granted beyond the request ${formatScopeList(requested)}`).toEqual([]);
});

check('token.scope.empty', {
  ...SCOPES,
  title: 'a token request without scope answers 200 with scope present and empty',
  spec: '3 §2.2',
  tags: ['schema'],
  covers: ['3:POST /token:body:scope'],
}, async (context) => {
  const setup = tokenSetup(context);
  const answer = await setup.client.post(passwordGrant(setup));
  const body = expectTokenResponse(context.expect, answer);
  context.expect(body.scope, `nothing was requested, so nothing may be granted: ${answer.describe()}`).toBe('');
});

check('token.scope.host-port-name', {
  ...SCOPES,
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
    ...SCOPES,
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
  title: 'any subset of a request is granted within the request and within what the whole request got',
  tags: ['property'],
  covers: ['3:POST /token:body:scope'],
}, async (context) => {
  const setup = tokenSetup(context);
  const all = sampleRequest(setup.user.username);
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
  title: 'scope lists with +, %, &, = and : in names survive form encoding: what is granted lies within what was sent',
  tags: ['property'],
  covers: ['3:POST /token:body:scope'],
}, async (context) => {
  const setup = tokenSetup(context);
  const refreshToken = await offlineRefreshToken(context.expect, setup);
  const scopes = fc.array(fc.record({ type: fc.constant('repository'), name: awkwardName, actions: fc.subarray(['pull', 'push'], { minLength: 1 }) }), { minLength: 1, maxLength: 4 });
  await assertProperty(context, fc.asyncProperty(scopes, async (requested) => {
    const got = await granted(context, setup, formatScopeList(requested), refreshToken);
    context.expect(scopesBeyond(got, requested), `granted beyond the request ${formatScopeList(requested)}`).toEqual([]);
  }), PROPERTY_RUNS);
});
