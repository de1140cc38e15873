/**
 * Pathname expansion (`ls /tmp/*.txt`) against the container filesystem: `*`, `?` and `[…]` per path
 * component, leading dots matched only explicitly, results sorted. The pattern comes with its quoted
 * characters escaped by `\`.
 */
import type { ContainerFilesystem } from '../filesystem/container-filesystem.ts';
import { resolvePath } from './paths.ts';

export function matchPathnames(pattern: string, cwd: string, fs: ContainerFilesystem): string[] {
  const segments = pattern.split('/');
  let candidates = [pattern.startsWith('/') ? '/' : ''];
  const start = pattern.startsWith('/') ? 1 : 0;
  for (let index = start; index < segments.length; index++) {
    const segment = segments[index] as string;
    if (segment === '' && index < segments.length - 1) continue; // `a//b`
    const matcher = segmentMatcher(segment);
    const next: string[] = [];
    for (const prefix of candidates) {
      if (matcher === undefined) {
        next.push(join(prefix, unescape(segment)));
        continue;
      }
      const directory = resolvePath(cwd, prefix === '' ? '.' : prefix);
      if (fs.stat(directory)?.kind !== 'directory') continue;
      for (const name of fs.list(directory)) {
        if (name.startsWith('.') && !segment.startsWith('.')) continue;
        if (matcher.test(name)) next.push(join(prefix, name));
      }
    }
    candidates = next;
  }
  return candidates.filter((path) => fs.lstat(resolvePath(cwd, path)) !== undefined).sort();
}

function join(prefix: string, name: string): string {
  if (prefix === '') return name;
  return prefix.endsWith('/') ? prefix + name : `${prefix}/${name}`;
}

function unescape(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}

/** A regular expression for a component with unescaped wildcards; undefined when it has none. */
function segmentMatcher(segment: string): RegExp | undefined {
  let source = '';
  let wild = false;
  for (let index = 0; index < segment.length; index++) {
    const char = segment[index] as string;
    if (char === '\\' && index + 1 < segment.length) {
      source += escapeRegExp(segment[++index] as string);
    } else if (char === '*') {
      source += '.*';
      wild = true;
    } else if (char === '?') {
      source += '.';
      wild = true;
    } else if (char === '[') {
      const bracket = bracketExpression(segment, index);
      if (bracket === undefined) source += '\\[';
      else {
        source += bracket.source;
        index = bracket.end;
        wild = true;
      }
    } else source += escapeRegExp(char);
  }
  return wild ? new RegExp(`^${source}$`, 's') : undefined;
}

/** `[abc]`, `[a-z]`, `[!x]` starting at `open`; undefined when there is no closing `]`. */
function bracketExpression(segment: string, open: number): { source: string; end: number } | undefined {
  let index = open + 1;
  let negated = false;
  if (segment[index] === '!' || segment[index] === '^') {
    negated = true;
    index++;
  }
  let body = '';
  const first = index;
  for (; index < segment.length; index++) {
    const char = segment[index] as string;
    if (char === ']' && index > first) return { source: `[${negated ? '^' : ''}${body}]`, end: index };
    if (char === '\\' && index + 1 < segment.length) body += escapeRegExp(segment[++index] as string);
    else body += char === '-' ? '-' : escapeRegExp(char);
  }
  return undefined;
}

function escapeRegExp(char: string): string {
  return char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
