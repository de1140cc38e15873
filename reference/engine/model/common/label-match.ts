/**
 * The engine's `label` filter: every wanted entry must hold, each either `key` (present) or
 * `key=value` (present with that value).
 */
export function matchesLabels(labels: Record<string, string>, wanted: readonly string[]): boolean {
  return wanted.every((entry) => {
    const separator = entry.indexOf('=');
    if (separator < 0) return Object.hasOwn(labels, entry);
    const key = entry.slice(0, separator);
    return Object.hasOwn(labels, key) && labels[key] === entry.slice(separator + 1);
  });
}
