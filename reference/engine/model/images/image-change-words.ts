/**
 * The words of a Dockerfile instruction as the engine's shell lexer reads them: split at whitespace
 * outside quotes, then each word's quotes and backslashes removed and its `$NAME`, `${NAME}`,
 * `${NAME:-default}` and `${NAME:+alternative}` replaced from the environment the instruction runs in
 * (inside single quotes nothing is replaced).
 */

/** The raw words of `text`: quotes and backslashes kept, so that expandWord sees them. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: string | undefined;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (quote === undefined && /\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      continue;
    }
    inWord = true;
    word += char;
    if (char === '\\' && quote !== "'" && index + 1 < text.length) word += text[(index += 1)];
    else if (char === quote) quote = undefined;
    else if (quote === undefined && (char === '"' || char === "'")) quote = char;
  }
  if (inWord) words.push(word);
  return words;
}

/** One word with its quotes and escapes removed and its variables replaced from `env` (`KEY=value` entries). */
export function expandWord(word: string, env: readonly string[]): string {
  const lookup = (name: string) => {
    const entry = [...env].reverse().find((candidate) => candidate.slice(0, candidate.indexOf('=')) === name);
    return entry === undefined ? undefined : entry.slice(entry.indexOf('=') + 1);
  };
  let result = '';
  let quote: string | undefined;
  for (let index = 0; index < word.length; index += 1) {
    const char = word[index] as string;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else result += char;
    } else if (char === '"' || (quote === undefined && char === "'")) {
      quote = quote === char ? undefined : char;
    } else if (char === '\\' && index + 1 < word.length) {
      const next = word[index + 1] as string;
      // inside double quotes a backslash only escapes what double quotes give a meaning to
      if (quote === '"' && !'"\\$'.includes(next)) result += char;
      result += next;
      index += 1;
    } else if (char === '$') {
      const [value, length] = variable(word.slice(index + 1), lookup);
      result += value;
      index += length;
    } else result += char;
  }
  return result;
}

/** The value of the variable reference at the start of `rest` (after the `$`) and how many characters it took. */
function variable(rest: string, lookup: (name: string) => string | undefined): [string, number] {
  const bare = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
  if (bare) return [lookup(bare[0]) ?? '', bare[0].length];
  const braced = /^\{([A-Za-z_][A-Za-z0-9_]*)(?::([-+])([^}]*))?\}/.exec(rest);
  if (!braced) return ['$', 0];
  const [whole, name = '', modifier, word = ''] = braced;
  const value = lookup(name);
  if (modifier === '-') return [value === undefined || value === '' ? word : value, whole.length];
  if (modifier === '+') return [value === undefined || value === '' ? '' : word, whole.length];
  return [value ?? '', whole.length];
}
