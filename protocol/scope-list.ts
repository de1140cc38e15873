/**
 * Scope lists (spec/3 §2.1), shared by the token service and the checks: space-separated
 * `type[(class)]:name:actions`, where the name may itself hold colons (`host:5000/library/busybox`)
 * and the actions are comma-separated. The name is what lies between the type and the last colon.
 */

export interface Scope {
  type: string;
  /** the optional resource class, e.g. `plugin` in `repository(plugin):vieux/sshfs:pull` */
  class?: string;
  name: string;
  actions: string[];
}

export class ScopeSyntaxError extends Error {
  override name = 'ScopeSyntaxError';
}

const TYPE = /^([a-z0-9]+)(?:\(([a-z0-9]+)\))?$/;
const NAME = /^[^\s]+$/;
const ACTION = /^(?:[a-z_]+|\*)$/;

/** Parses a scope list; the empty list (`""`, only spaces) is no scope at all. */
export function parseScopeList(text: string): Scope[] {
  return text
    .split(' ')
    .filter((item) => item !== '')
    .map(parseScope);
}

export function parseScope(item: string): Scope {
  const typeEnd = item.indexOf(':');
  const actionsStart = item.lastIndexOf(':');
  if (typeEnd < 0 || actionsStart === typeEnd) throw new ScopeSyntaxError(`scope ${JSON.stringify(item)} is not type[(class)]:name:actions`);
  const typePart = TYPE.exec(item.slice(0, typeEnd));
  const name = item.slice(typeEnd + 1, actionsStart);
  const actions = item.slice(actionsStart + 1).split(',');
  if (!typePart?.[1]) throw new ScopeSyntaxError(`scope ${JSON.stringify(item)}: the type must be lowercase letters and digits, with an optional (class)`);
  if (!NAME.test(name)) throw new ScopeSyntaxError(`scope ${JSON.stringify(item)} has no resource name`);
  if (!actions.every((action) => ACTION.test(action))) throw new ScopeSyntaxError(`scope ${JSON.stringify(item)}: actions must be comma-separated words`);
  return { type: typePart[1], ...(typePart[2] ? { class: typePart[2] } : {}), name, actions };
}

export function formatScope(scope: Scope): string {
  return `${scope.type}${scope.class ? `(${scope.class})` : ''}:${scope.name}:${scope.actions.join(',')}`;
}

export function formatScopeList(scopes: readonly Scope[]): string {
  return scopes.map(formatScope).join(' ');
}

/** Each `type[(class)]:name:action` of `granted` that `allowed` does not hold: empty when granted is a subset. */
export function scopesBeyond(granted: readonly Scope[], allowed: readonly Scope[]): string[] {
  const key = (scope: Scope, action: string) => formatScope({ ...scope, actions: [action] });
  const within = new Set(allowed.flatMap((scope) => scope.actions.map((action) => key(scope, action))));
  return granted.flatMap((scope) => scope.actions.map((action) => key(scope, action))).filter((item) => !within.has(item));
}
