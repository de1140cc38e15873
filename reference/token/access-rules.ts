/**
 * What a user may be granted: rules of the users file (`{type, name, actions}`, `*` in a name matching
 * any run of characters, `*` as an action meaning all), plus every account action on the user's own
 * account. A request is granted as the subset the rules allow, never more: actions nobody allows are
 * dropped, and so is a scope left with none.
 */
import type { Scope } from '../../harness/scope-list.ts';

export interface AccessRule {
  type: string;
  name: string;
  actions: string[];
}

/** The accounts API's resource: `account:<username>:<actions>` (spec/3 §5.4 names the actions). */
export const ACCOUNT_SCOPE_TYPE = 'account';
export const ACCOUNT_ACTIONS = ['profile_read', 'profile_write', 'email_read', 'email_write'] as const;

export function ownAccountRule(username: string): AccessRule {
  return { type: ACCOUNT_SCOPE_TYPE, name: username, actions: [...ACCOUNT_ACTIONS] };
}

function nameMatches(pattern: string, name: string): boolean {
  const source = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${source}$`).test(name);
}

export function grantScopes(requested: readonly Scope[], rules: readonly AccessRule[]): Scope[] {
  const granted: Scope[] = [];
  for (const scope of requested) {
    const allowed = rules.filter((rule) => rule.type === scope.type && nameMatches(rule.name, scope.name)).flatMap((rule) => rule.actions);
    const actions = [...new Set(scope.actions)].filter((action) => allowed.includes('*') || allowed.includes(action));
    if (actions.length > 0) granted.push({ ...scope, actions });
  }
  return granted;
}
