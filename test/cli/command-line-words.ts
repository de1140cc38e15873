/**
 * The words of one shell command line as sh splits them, quotes removed, up to the first redirection,
 * pipe or list operator: enough for the `shipshape …` lines of our examples (no variables in them).
 */
export function commandWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = undefined;
      else word = (word ?? '') + char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if ('<>|;&'.includes(char)) {
      break;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} in ${line}`);
  if (word !== undefined) words.push(word);
  return words;
}
