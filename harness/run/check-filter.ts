import type { CheckDescriptor, CheckLevel } from '../check.ts';
import { UsageError } from '../cli/usage-error.ts';

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

/** `--level spec|docker|all`: the check level a run selects; all (the default) is no selection. */
export type LevelChoice = CheckLevel | 'all';

export function parseLevel(text: string): LevelChoice {
  if (text === 'spec' || text === 'docker' || text === 'all') return text;
  throw new UsageError(`--level: expected spec, docker or all, got ${JSON.stringify(text)}`);
}

/**
 * The checks of one level among those `only` selects, as a pattern of their exact ids: vitest filters
 * tests by name only, and a check's level is in its metadata, known once the suite is collected.
 */
export function levelPattern(checks: readonly Pick<CheckDescriptor, 'id' | 'level'>[], level: LevelChoice, only: RegExp | undefined): RegExp | undefined {
  if (level === 'all') return only;
  const ids = checks.filter((check) => check.level === level && (only?.test(check.id) ?? true)).map((check) => check.id.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  // No check of the level: a pattern no name matches (an empty alternation would match the empty name).
  return new RegExp(ids.length === 0 ? '^(?!)' : `^(?:${ids.join('|')})$`);
}
