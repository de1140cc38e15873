/**
 * `shipshape compare A.json B.json … [--out DIR]`: runs of several implementations side by side, as
 * compare.html and compare.md in DIR (default reports/compare).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { compareReports } from '../report/compare-model.ts';
import { renderCompareHtml } from '../report/render-compare-html.ts';
import { renderCompareMarkdown } from '../report/render-compare-markdown.ts';
import type { CommandSpec } from './command-help.ts';
import { parseFlags } from './parse-flags.ts';
import { readReport } from './read-report.ts';
import { UsageError } from './usage-error.ts';

export const COMPARE_COMMAND = {
  name: 'compare',
  arguments: 'A.json B.json …',
  description: ['The report.json of two or more runs, one per implementation, side by side: compare.html and compare.md, with a support level per area and target (full, partial naming the checks, none).'],
  flags: {
    out: { type: 'string', value: 'DIR', default: 'reports/compare', help: 'where compare.html and compare.md are written (made if missing)' },
  },
  examples: ['shipshape compare reports/reference/report.json reports/dockerd/report.json reports/podman/report.json --out reports/compare'],
} as const satisfies CommandSpec;

export async function compareCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, COMPARE_COMMAND);
  if (positionals.length < 2) throw new UsageError('expected two or more reports: shipshape compare A.json B.json … [--out DIR]');
  const comparison = compareReports(await Promise.all(positionals.map(readReport)));
  await fs.mkdir(values.out, { recursive: true });
  const written = [path.join(values.out, 'compare.html'), path.join(values.out, 'compare.md')];
  await Promise.all([fs.writeFile(written[0]!, renderCompareHtml(comparison)), fs.writeFile(written[1]!, renderCompareMarkdown(comparison))]);
  console.log(`compare: ${comparison.targets.length} targets, ${comparison.areas.length} areas; wrote ${written.join(', ')}`);
  return 0;
}
