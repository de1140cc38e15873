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
