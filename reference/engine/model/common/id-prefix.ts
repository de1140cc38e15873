import { AmbiguousReferenceError } from './errors.ts';

/**
 * The item whose hex id starts with `prefix`, if exactly one does. Several is an error rather than
 * a guess, as in the engine: acting on the wrong object is worse than refusing.
 */
export function findByIdPrefix<T>(items: Iterable<T>, hexIdOf: (item: T) => string, prefix: string): T | undefined {
  if (!/^[0-9a-f]+$/.test(prefix)) return undefined;
  let found: T | undefined;
  for (const item of items) {
    if (!hexIdOf(item).startsWith(prefix)) continue;
    if (found !== undefined) throw new AmbiguousReferenceError(`Multiple IDs found with provided prefix: ${prefix}`);
    found = item;
  }
  return found;
}
