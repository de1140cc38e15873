/**
 * The passages of ../shared/spec/ a check may name, with their text: a section heading
 * (`### 4.1 Containers`: everything up to the next heading of the same or a higher level, its
 * subsections included) or a numbered rule of a section ('1 §9.4' is the line `4. …` under `## 9.`,
 * with its continuation lines). The level lint and the quote lint both read them.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SPEC_DIR = path.resolve(REPO_ROOT, '../shared/spec');

/** `## 4. Endpoints` or `### 4.1 Containers`: its depth and section number. */
const HEADING = /^(#{2,})\s+(\d+(?:\.\d+)*)\.?\s/;
/** `1. Errors use …` at the start of a line: a numbered rule of the section it is in. */
const RULE = /^(\d+)\.\s/;

/** One spec document's passages: number → text. */
export type SpecPassages = Map<string, string>;

/** Every passage a check can name in one spec document, with its text. */
export function specPassages(markdown: string): SpecPassages {
  const lines = markdown.split('\n');
  const passages: SpecPassages = new Map();
  const open: { id: string; depth: number; from: number }[] = [];
  let rule: { id: string; from: number } | undefined;
  let section: string | undefined;
  const closeRule = (at: number): void => {
    if (rule) passages.set(rule.id, lines.slice(rule.from, at).join('\n'));
    rule = undefined;
  };
  lines.forEach((line, index) => {
    const heading = HEADING.exec(line);
    if (heading) {
      closeRule(index);
      const depth = heading[1]!.length;
      while (open.length > 0 && open.at(-1)!.depth >= depth) {
        const done = open.pop()!;
        passages.set(done.id, lines.slice(done.from, index).join('\n'));
      }
      section = heading[2]!;
      open.push({ id: section, depth, from: index });
      return;
    }
    const numbered = RULE.exec(line);
    if (numbered && section !== undefined) {
      closeRule(index);
      rule = { id: `${section}.${numbered[1]}`, from: index };
    } else if (rule && line.trim() === '') {
      closeRule(index);
    }
  });
  closeRule(lines.length);
  for (const done of open) passages.set(done.id, lines.slice(done.from).join('\n'));
  return passages;
}

/** The three documents, keyed by their number ('1', '2', '3'). */
export async function readSpec(): Promise<Map<string, SpecPassages>> {
  const files = (await fs.readdir(SPEC_DIR)).filter((file) => /^\d+-.*\.md$/.test(file));
  return new Map(await Promise.all(files.map(async (file) => [file.split('-')[0]!, specPassages(await fs.readFile(path.join(SPEC_DIR, file), 'utf8'))] as const)));
}

/** '1 §4.4' or '1 §2.3, §8' (a document, then sections; a later part may name another document: '1 §7, 2 §4.2'). */
export function parseSpecReference(text: string): { document: string; section: string }[] | undefined {
  const references: { document: string; section: string }[] = [];
  let document: string | undefined;
  for (const part of text.split(',').map((piece) => piece.trim())) {
    const match = /^(?:(\d+) )?§(\d+(?:\.\d+)*)$/.exec(part);
    document = match?.[1] ?? document;
    if (!match || document === undefined) return undefined;
    references.push({ document, section: match[2]! });
  }
  return references;
}

/** Quotes are compared with runs of whitespace (line breaks of the Markdown included) as one space. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
