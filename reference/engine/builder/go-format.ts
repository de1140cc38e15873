/**
 * Go's formatting of values as dockerd's builder prints them into step comments, history and error
 * messages: `%q` of a string (strconv.Quote), of a []string (`["a" "b"]`), of an int (a quoted rune:
 * `'\x04'`), and a time.Duration's String (`1m30s`, `500ms`, `0s`).
 */

const NAMED_ESCAPES: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\' };

/** strconv.Quote: `\a`-style escapes and `\x` for other control bytes, printable text as it is. */
export function goQuote(text: string): string {
  return `"${[...text].map((char) => (char === '"' ? '\\"' : escapedChar(char))).join('')}"`;
}

/** Go's `%q` of a []string: `["a" "b"]` (nil and empty alike: `[]`). */
export function goQuotedList(items: readonly string[] | null | undefined): string {
  return `[${(items ?? []).map(goQuote).join(' ')}]`;
}

/** Go's `%q` of an int: the rune it numbers, quoted (strconv.QuoteRune; beyond Unicode, U+FFFD). */
export function goQuoteRune(value: number): string {
  const valid = Number.isInteger(value) && value >= 0 && value <= 0x10ffff && !(value >= 0xd800 && value <= 0xdfff);
  const char = String.fromCodePoint(valid ? value : 0xfffd);
  return `'${char === "'" ? "\\'" : escapedChar(char)}'`;
}

/** time.Duration's String of a number of nanoseconds. */
export function goDurationString(nanoseconds: number): string {
  if (nanoseconds === 0) return '0s';
  const sign = nanoseconds < 0 ? '-' : '';
  let rest = Math.abs(nanoseconds);
  if (rest < 1e3) return `${sign}${rest}ns`;
  if (rest < 1e6) return `${sign}${decimal(rest, 1e3)}µs`;
  if (rest < 1e9) return `${sign}${decimal(rest, 1e6)}ms`;
  const hours = Math.floor(rest / 3600e9);
  rest -= hours * 3600e9;
  const minutes = Math.floor(rest / 60e9);
  rest -= minutes * 60e9;
  return `${sign}${hours > 0 ? `${hours}h` : ''}${hours > 0 || minutes > 0 ? `${minutes}m` : ''}${decimal(rest, 1e9)}s`;
}

/** `value / unit` with the fraction's trailing zeros dropped. */
function decimal(value: number, unit: number): string {
  const whole = Math.floor(value / unit);
  const fraction = value - whole * unit;
  if (fraction === 0) return `${whole}`;
  return `${whole}.${String(fraction).padStart(String(unit).length - 1, '0').replace(/0+$/, '')}`;
}

function escapedChar(char: string): string {
  const named = NAMED_ESCAPES[char];
  if (named !== undefined) return named;
  if (isPrintable(char)) return char;
  const code = char.codePointAt(0) as number;
  if (code < 0x80) return `\\x${hex(code, 2)}`;
  return code < 0x10000 ? `\\u${hex(code, 4)}` : `\\U${hex(code, 8)}`;
}

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isPrintable(char: string): boolean {
  return char === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(char);
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}
