/** Failure messages can quote whole response bodies: the summaries keep them to a readable size. */

export function firstLine(text: string): string {
  return text.split(/\r?\n/, 1)[0] ?? '';
}

/** At most `maxLines` lines and `maxChars` characters, saying how much was cut. */
export function truncate(text: string, maxChars: number, maxLines = Number.POSITIVE_INFINITY): string {
  const whole = text.replace(/\r\n/g, '\n');
  let kept = whole.split('\n').slice(0, maxLines).join('\n');
  if (kept.length > maxChars) kept = kept.slice(0, maxChars).replace(/[\uD800-\uDBFF]$/, ''); // never half a surrogate pair
  if (kept.length === whole.length) return whole;
  return `${kept.trimEnd()} … (${whole.length - kept.length} more characters)`;
}
