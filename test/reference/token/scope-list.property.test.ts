/**
 * Scope lists and the grant rule as properties: any scope list round-trips through format and parse;
 * what is granted never exceeds the request nor what the rules allow; a form carrying a scope list
 * round-trips through encoding. The seed comes from SHIPSHAPE_SEED:
 * `SHIPSHAPE_SEED=<seed> npx vitest run --project unit test/reference/token`.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { encodeForm } from '../../../harness/client/token-client.ts';
import { formatScopeList, parseScope, parseScopeList, scopesBeyond, type Scope } from '../../../protocol/scope-list.ts';
import { grantScopes, type AccessRule } from '../../../reference/token/access-rules.ts';

const seed = Number(process.env.SHIPSHAPE_SEED ?? 424242);
const settings = { seed, numRuns: 300 };

const word = fc.stringMatching(/^[a-z0-9]{1,8}$/);
/** names as registries write them: path components, optionally behind a host:port */
const name = fc
  .tuple(fc.option(fc.tuple(fc.constantFrom('localhost', '127.0.0.1', 'registry.example.org'), fc.integer({ min: 1, max: 65_535 })), { nil: undefined }), fc.array(fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,6}$/), { minLength: 1, maxLength: 3 }))
  .map(([host, path]) => `${host ? `${host[0]}:${host[1]}/` : ''}${path.join('/')}`);
const actions = fc.uniqueArray(fc.constantFrom('pull', 'push', 'delete', '*', 'profile_read', 'email_write'), { minLength: 1, maxLength: 4 });
const scope: fc.Arbitrary<Scope> = fc.record({ type: word, class: fc.option(word, { nil: undefined }), name, actions }).map(({ class: resourceClass, ...rest }) => ({ ...rest, ...(resourceClass ? { class: resourceClass } : {}) }));

test(`any scope list round-trips through format and parse (seed ${seed})`, () => {
  fc.assert(fc.property(fc.array(scope, { maxLength: 5 }), (scopes) => {
    expect(parseScopeList(formatScopeList(scopes))).toEqual(scopes);
  }), settings);
});

test('a name with host:port is one name; malformed items are refused', () => {
  expect(parseScope('repository(plugin):localhost:5000/alice/app:pull,push')).toEqual({ type: 'repository', class: 'plugin', name: 'localhost:5000/alice/app', actions: ['pull', 'push'] });
  expect(parseScopeList('  repository:a:pull   registry:catalog:* ')).toHaveLength(2);
  for (const bad of ['repository:alice', 'repository::pull', 'Repo:alice:pull', 'repository:alice:pull,', 'repository:alice:Pull']) {
    expect(() => parseScope(bad), bad).toThrow();
  }
});

const rule: fc.Arbitrary<AccessRule> = fc.record({ type: word, name: fc.oneof(name, name.map((text) => `${text.split('/')[0] ?? ''}/*`), fc.constant('*')), actions });

test(`what is granted lies within the request, granting it again changes nothing, and no rule grants nothing (seed ${seed})`, () => {
  fc.assert(fc.property(fc.array(scope, { maxLength: 5 }), fc.array(rule, { maxLength: 4 }), (requested, rules) => {
    const granted = grantScopes(requested, rules);
    expect(scopesBeyond(granted, requested)).toEqual([]);
    expect(grantScopes(granted, rules)).toEqual(granted);
    expect(grantScopes(requested, [])).toEqual([]);
  }), settings);
});

test('rules: * in a name matches any run of characters, * as an action allows all, other types and names get nothing', () => {
  const rules: AccessRule[] = [
    { type: 'repository', name: 'alice/*', actions: ['pull', 'push'] },
    { type: 'repository', name: '*/shared', actions: ['pull'] },
    { type: 'registry', name: 'catalog', actions: ['*'] },
  ];
  const granted = grantScopes(parseScopeList('repository:alice/a/b:pull,push,delete repository:bob/shared:pull,push repository:bob/x:pull registry:catalog:* account:alice:profile_read'), rules);
  expect(formatScopeList(granted)).toBe('repository:alice/a/b:pull,push repository:bob/shared:pull registry:catalog:*');
});

test(`a subset of a request is granted within what the whole request got (seed ${seed})`, () => {
  fc.assert(fc.property(fc.array(scope, { minLength: 1, maxLength: 5 }), fc.array(rule, { maxLength: 4 }), fc.infiniteStream(fc.boolean()), (requested, rules, keep) => {
    const subset = requested.filter(() => keep.next().value);
    expect(scopesBeyond(grantScopes(subset, rules), grantScopes(requested, rules))).toEqual([]);
  }), settings);
});

test(`a token form with any scope list and any printable field values round-trips through form encoding (seed ${seed})`, () => {
  fc.assert(fc.property(fc.array(scope, { maxLength: 4 }), fc.string({ unit: 'grapheme' }), fc.string(), (scopes, password, clientId) => {
    const fields = { grant_type: 'password', scope: formatScopeList(scopes), password, client_id: clientId };
    const decoded = Object.fromEntries(new URLSearchParams(encodeForm(fields)));
    expect(decoded).toEqual(fields);
    expect(parseScopeList(decoded.scope ?? '')).toEqual(scopes);
  }), settings);
});
