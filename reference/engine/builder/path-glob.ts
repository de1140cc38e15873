/**
 * Go's path patterns as regular expressions over a whole relative path: filepath.Match's `*` and
 * `?` (never crossing a `/`), `[...]` classes (`[!...]` or `[^...]` negated) and `\` escapes; with
 * `doubleStar`, also pkg/fileutils' `**`, which crosses elements (and, followed by a slash, may match nothing).
 */
export function globRegExp(pattern: string, options: { doubleStar: boolean }): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === '*' && options.doubleStar && pattern[index + 1] === '*') {
      index++;
      if (pattern[index + 1] === '/') {
        index++;
        source += '(.*/)?';
      } else source += '.*';
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '\\' && index + 1 < pattern.length) source += `\\${pattern[++index] as string}`;
    else if (char === '[') {
      const end = pattern.indexOf(']', index + 1);
      if (end < 0) source += '\\[';
      else {
        source += `[${pattern.slice(index + 1, end).replace(/^[!^]/, '^')}]`;
        index = end;
      }
    } else source += char.replace(/[.+^${}()|/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
