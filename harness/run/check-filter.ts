/** `--only GLOB`: `*` matches within one dotted segment, `**` across segments; comma-separated globs. */
export function globToRegExp(globs: string): RegExp {
  const alternatives = globs
    .split(',')
    .map((glob) => glob.trim())
    .filter(Boolean)
    .map((glob) =>
      glob
        .split(/(\*\*|\*)/)
        .map((part) => (part === '**' ? '.*' : part === '*' ? '[^.]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
        .join(''),
    );
  return new RegExp(`^(?:${alternatives.join('|')})$`);
}

/**
 * The areas `--only` can match, when every glob names its area literally (`system.ping.*`), so that a
 * run loads only those suite folders (a check's area is its folder: `shipshape list` refuses
 * otherwise); undefined when a glob's first segment has a wildcard and any area may match.
 */
export function areasOf(globs: string): string[] | undefined {
  const areas = globs
    .split(',')
    .map((glob) => glob.trim())
    .filter(Boolean)
    .map((glob) => glob.split('.')[0] ?? '');
  if (areas.length === 0 || areas.some((area) => area === '' || area.includes('*'))) return undefined;
  return [...new Set(areas)];
}
