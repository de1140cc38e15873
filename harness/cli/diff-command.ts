/** `shipshape diff A.json B.json [--format md|html|json]`: regressions, fixes, new and removed checks per version. */
import type { CommandSpec } from './command-help.ts';
import { parseFlags } from './parse-flags.ts';
import { UsageError } from './usage-error.ts';
import { readReport } from './read-report.ts';
import { diffReports, renderDiff } from '../report/diff.ts';

const FORMATS = ['md', 'html', 'json'] as const;

export const DIFF_COMMAND = {
  name: 'diff',
  arguments: 'A.json B.json',
  description: ['From report A (the baseline) to report B, per version: the checks that regressed, were fixed, are new or are gone. Exits 0.'],
  flags: {
    format: { type: 'string', value: 'md|html|json', default: 'md', help: 'what it prints: Markdown (for a CI summary), a self-contained HTML page, or JSON' },
  },
  examples: ['shipshape diff reports/main/report.json reports/latest/report.json', 'shipshape diff reports/main/report.json reports/latest/report.json --format html > diff.html'],
} as const satisfies CommandSpec;

export async function diffCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, DIFF_COMMAND);
  if (positionals.length !== 2) throw new UsageError('expected two reports: shipshape diff A.json B.json [--format md|html|json]');
  const format = FORMATS.find((name) => name === values.format);
  if (!format) throw new UsageError(`--format: expected md, html or json, got ${JSON.stringify(values.format)}`);
  const [a, b] = await Promise.all(positionals.map(readReport));
  process.stdout.write(`${renderDiff(diffReports(a!, b!), format).trimEnd()}\n`);
  return 0;
}
