/** `shipshape diff A.json B.json [--format md|html|json]`: regressions, fixes, new and removed checks per version. */
import { parseFlags } from './parse-flags.ts';
import { UsageError } from './usage-error.ts';
import { readReport } from './read-report.ts';
import { diffReports, renderDiff } from '../report/diff.ts';

const FORMATS = ['md', 'html', 'json'] as const;

export async function diffCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, { format: { type: 'string', default: 'md' } }, true);
  if (positionals.length !== 2) throw new UsageError('expected two reports: shipshape diff A.json B.json [--format md|html|json]');
  const format = FORMATS.find((name) => name === values.format);
  if (!format) throw new UsageError(`--format: expected md, html or json, got ${JSON.stringify(values.format)}`);
  const [a, b] = await Promise.all(positionals.map(readReport));
  process.stdout.write(`${renderDiff(diffReports(a!, b!), format).trimEnd()}\n`);
  return 0;
}
