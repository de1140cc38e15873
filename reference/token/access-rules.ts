/**
 * What a user may be granted: rules of the users file (`{type, name, actions}`, `*` in a name matching
 * any run of characters, `*` as an action meaning all), plus every account action on the user's own
 * account. A request is granted as the subset the rules allow, never more: actions nobody allows are
 * dropped, and so is a scope left with none. A `*` matches only in a rule: a requested name is matched
 * as it is written, and one that is no name (a repository outside distribution's name grammar, such as
 * `alice/../bob/app`, or any name holding `*`) is granted nothing, so no glob reaches past its prefix.
 */
import type { Scope } from '../../protocol/scope-list.ts';

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

/** distribution's reference grammar: [domain[:port]/]component(/component)*, a component lowercase words joined by `.`, `_`, `__` or dashes. */
const NAME_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const DOMAIN = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*(?::[0-9]+)?';
const REPOSITORY_NAME = new RegExp(`^(?:${DOMAIN}/)?${NAME_COMPONENT}(?:/${NAME_COMPONENT})*$`);
/** distribution's limit on a repository name */
const REPOSITORY_NAME_MAX = 255;

function isGrantableName(type: string, name: string): boolean {
  if (name.includes('*')) return false;
  return type !== 'repository' || (name.length <= REPOSITORY_NAME_MAX && REPOSITORY_NAME.test(name));
}

function nameMatches(pattern: string, name: string): boolean {
  const source = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${source}$`).test(name);
}

export function grantScopes(requested: readonly Scope[], rules: readonly AccessRule[]): Scope[] {
  const granted: Scope[] = [];
  for (const scope of requested) {
    if (!isGrantableName(scope.type, scope.name)) continue;
    const allowed = rules.filter((rule) => rule.type === scope.type && nameMatches(rule.name, scope.name)).flatMap((rule) => rule.actions);
    const actions = [...new Set(scope.actions)].filter((action) => allowed.includes('*') || allowed.includes(action));
    if (actions.length > 0) granted.push({ ...scope, actions });
  }
  return granted;
}
