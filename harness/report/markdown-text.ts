/** Markdown for summary.md and `shipshape diff --format md`: messages must not break the tables or fences around them. */
import { showControlCharacters } from './markup-escape.ts';

/** One table cell: one line, pipes escaped, and `<` escaped since Markdown renders raw HTML. */
export function mdCell(text: string): string {
  return showControlCharacters(text.replace(/\s*\r?\n\s*/g, ' ')).replace(/\|/g, '\\|').replace(/</g, '&lt;');
}

/** Inline code that holds any backticks the text has. */
export function mdCode(text: string): string {
  const fence = '`'.repeat(longestRun(text, '`') + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A fenced block, its fence longer than any backtick run inside, indented to sit under a list item. */
export function mdFence(text: string, indent = ''): string {
  const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  return [`${fence}text`, ...showControlCharacters(text).split('\n'), fence].map((line) => `${indent}${line}`.trimEnd()).join('\n');
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}
