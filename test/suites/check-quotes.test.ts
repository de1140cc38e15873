/**
 * A spec-level check names the sentences it rests on (DESIGN.md, "Two levels"): at least one quote,
 * each found verbatim (whitespace collapsed) in a passage its `spec` names, so an implementer failed
 * by it reads the sentence they are said to break, not a paraphrase. The checks' metadata comes from
 * `shipshape list --json`, as a user sees it.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import type { CheckDescriptor } from '../../harness/check.ts';
import { collapseWhitespace, parseSpecReference, readSpec, REPO_ROOT, type SpecPassages } from './spec-passages.ts';

/** What is wrong with a check's quotes, one line per problem. */
export function quoteProblems(check: Pick<CheckDescriptor, 'id' | 'level' | 'spec' | 'quote'>, spec: Map<string, SpecPassages>): string[] {
  const quotes = check.quote ?? [];
  if (check.level !== 'spec' && quotes.length === 0) return [];
  if (quotes.length === 0) return [`${check.id}: a spec-level check without quote`];
  const passages = (parseSpecReference(check.spec) ?? []).flatMap(({ document, section }) => {
    const text = spec.get(document)?.get(section);
    return text === undefined ? [] : [collapseWhitespace(text)];
  });
  return quotes.flatMap((quote) => {
    const sentence = collapseWhitespace(quote);
    if (sentence === '') return [`${check.id}: an empty quote`];
    return passages.some((passage) => passage.includes(sentence)) ? [] : [`${check.id}: ${JSON.stringify(quote)} is not in spec ${check.spec}`];
  });
}

describe('the quote lint', async () => {
  const spec = await readSpec();

  test('finds a table row, a rule and a sentence in their passages, whitespace collapsed', () => {
    const quoted = (spec: string, quote: string[]) => ({ id: 'a.b.c', level: 'spec' as const, spec, quote });
    const row = collapseWhitespace(spec.get('1')!.get('4.1')!.split('\n').find((line) => line.startsWith('| POST /containers/{id_or_name}/start'))!);
    expect(quoteProblems(quoted('1 §4.1', [row]), spec)).toEqual([]);
    expect(quoteProblems(quoted('1 §4', [row.replace(/ \| /g, ' |\n  ')]), spec)).toEqual([]);
    expect(quoteProblems(quoted('1 §9.4, §4.1', [row]), spec)).toEqual([]);
    const rule = spec.get('1')!.get('9.4')!;
    expect(quoteProblems(quoted('1 §9.4', [rule.slice(3, 60)]), spec)).toEqual([]);
  });

  test('refuses a missing quote, a paraphrase, a quote from another section and an empty one', () => {
    const row = spec.get('1')!.get('4.1')!.split('\n').find((line) => line.startsWith('| POST /containers/{id_or_name}/start'))!;
    expect(quoteProblems({ id: 'a.b.c', level: 'spec', spec: '1 §4.1' }, spec)).toEqual(['a.b.c: a spec-level check without quote']);
    expect(quoteProblems({ id: 'a.b.c', level: 'docker', spec: '1 §4.1' }, spec)).toEqual([]);
    expect(quoteProblems({ id: 'a.b.c', level: 'spec', spec: '1 §4.1', quote: [row.replace('204', '200')] }, spec)).toHaveLength(1);
    expect(quoteProblems({ id: 'a.b.c', level: 'spec', spec: '1 §4.2', quote: [row] }, spec)).toHaveLength(1);
    expect(quoteProblems({ id: 'a.b.c', level: 'spec', spec: '1 §9.3', quote: [spec.get('1')!.get('9.4')!.slice(3, 60)] }, spec)).toHaveLength(1);
    expect(quoteProblems({ id: 'a.b.c', level: 'spec', spec: '1 §4.1', quote: [' \n '] }, spec)).toEqual(['a.b.c: an empty quote']);
  });
});

describe('every spec-level check of the suite', { timeout: 120_000 }, async () => {
  const spec = await readSpec();
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(REPO_ROOT, 'bin/shipshape.js'), 'list', '--json'], { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 });
  const checks = JSON.parse(stdout) as CheckDescriptor[];

  test('quotes the spec sentences it rests on, each found verbatim in a passage it names', () => {
    expect(checks.filter((check) => check.level === 'spec').length).toBeGreaterThan(100);
    expect(checks.flatMap((check) => quoteProblems(check, spec))).toEqual([]);
  });
});
