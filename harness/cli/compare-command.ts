/**
 * `shipshape compare A.json B.json … [--out DIR]`: runs of several implementations side by side, as
 * compare.html and compare.md in DIR (default reports/compare).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { compareReports } from '../report/compare-model.ts';
import { renderCompareHtml } from '../report/render-compare-html.ts';
import { renderCompareMarkdown } from '../report/render-compare-markdown.ts';
import { parseFlags } from './parse-flags.ts';
import { readReport } from './read-report.ts';
import { UsageError } from './usage-error.ts';

export async function compareCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, { out: { type: 'string', default: 'reports/compare' } }, true);
  if (positionals.length < 2) throw new UsageError('expected two or more reports: shipshape compare A.json B.json … [--out DIR]');
  const comparison = compareReports(await Promise.all(positionals.map(readReport)));
  await fs.mkdir(values.out, { recursive: true });
  const written = [path.join(values.out, 'compare.html'), path.join(values.out, 'compare.md')];
  await Promise.all([fs.writeFile(written[0]!, renderCompareHtml(comparison)), fs.writeFile(written[1]!, renderCompareMarkdown(comparison))]);
  console.log(`compare: ${comparison.targets.length} targets, ${comparison.areas.length} areas; wrote ${written.join(', ')}`);
  return 0;
}
