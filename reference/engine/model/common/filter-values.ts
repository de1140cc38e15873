/** A list filter given several values passes what any one of them passes; a filter not given passes everything. */
export function anyValueHolds(values: readonly string[] | undefined, holds: (value: string) => boolean): boolean {
  return values === undefined || values.some(holds);
}

/** dockerd's filter match: equal, or a regular expression found in the value; a broken pattern matches nothing. */
export function matchesAnyPattern(patterns: string[] | undefined, value: string): boolean {
  if (patterns === undefined) return true;
  return patterns.some((pattern) => {
    if (pattern === value) return true;
    try {
      return new RegExp(pattern).test(value);
    } catch {
      return false;
    }
  });
}
