/**
 * `.dockerignore` as dockerd reads it (builder/dockerignore, pkg/fileutils): one pattern a line,
 * `#` comments and blank lines skipped, `!` re-includes, patterns cleaned and taken from the context's
 * root; `*` and `?` stay within a path element, `**` crosses them. A pattern that matches a directory
 * matches everything under it; the last pattern that matches a path decides.
 */
import { posix } from 'node:path';
import { globRegExp } from './path-glob.ts';

export interface IgnorePattern {
  /** a `!` pattern: what it matches is kept */
  exclusion: boolean;
  /** the cleaned pattern's elements, for matching a path's parents */
  depth: number;
  regexp: RegExp;
}

export function parseDockerignore(text: string): IgnorePattern[] {
  const patterns: IgnorePattern[] = [];
  for (const line of text.split('\n')) {
    let pattern = line.trim();
    if (pattern === '' || pattern.startsWith('#')) continue;
    const exclusion = pattern.startsWith('!');
    if (exclusion) pattern = pattern.slice(1).trim();
    if (pattern === '') continue;
    pattern = posix.normalize(pattern).replace(/^\/+/, '').replace(/\/+$/, '') || '.';
    patterns.push({ exclusion, depth: pattern.split('/').length, regexp: globRegExp(pattern, { doubleStar: true }) });
  }
  return patterns;
}

/** Whether `path` (relative to the context's root) is left out of the context. */
export function isIgnored(path: string, patterns: readonly IgnorePattern[]): boolean {
  const cleaned = posix.normalize(path).replace(/^\/+/, '');
  const parents = posix.dirname(cleaned) === '.' ? [] : posix.dirname(cleaned).split('/');
  let ignored = false;
  for (const pattern of patterns) {
    let match = pattern.regexp.test(cleaned);
    if (!match && parents.length >= pattern.depth) match = pattern.regexp.test(parents.slice(0, pattern.depth).join('/'));
    if (match) ignored = !pattern.exclusion;
  }
  return ignored;
}
