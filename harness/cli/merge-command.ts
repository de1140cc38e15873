/**
 * `shipshape merge DIR… [--report-dir DIR] [--gate]`: the report directories of a run's shards (`run
 * --shard I/N`) into the report files of one run, as if it had not been sharded. With --gate it judges
 * the merged run as run judges its own: the job that gathers a CI matrix's shards gates on it.
 */
import path from 'node:path';
import { MergeError, mergeReports, NO_RESULT } from '../report/merge-reports.ts';
import { writeReports } from '../report/write-reports.ts';
import { gateFailureLine, gateFailures } from '../expectations.ts';
import type { CommandSpec } from './command-help.ts';
import { parseFlags } from './parse-flags.ts';
import { readReport } from './read-report.ts';
import { UsageError } from './usage-error.ts';

export const MERGE_COMMAND = {
  name: 'merge',
  arguments: 'DIR…',
  description: ['DIR…: the report directories of the shards of one run (run --shard I/N --report-dir DIR); their report.json files become the four report files of that run. Exits 1 when a result is in no shard (reported as an error), and with --gate when the merged run has a result that fails the gate (a failure, an error or a pass that --expect did not foresee).'],
  flags: {
    'report-dir': { type: 'string', value: 'DIR', default: 'reports/latest', help: 'where the merged report.json, junit.xml, report.html and summary.md are written' },
    gate: { type: 'boolean', default: false, help: "judge the merged run as run judges its own (the shards' --expect already applied): exit 1 on an unexpected result" },
  },
  examples: ['shipshape merge reports/shard-1 reports/shard-2 --report-dir reports/latest', 'shipshape merge reports/shard-* --report-dir reports/merged --gate'],
} as const satisfies CommandSpec;

const GATE_LISTED = 20;

export async function mergeCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, MERGE_COMMAND);
  if (positionals.length === 0) throw new UsageError('expected the report directories of the shards: shipshape merge DIR… [--report-dir DIR]');
  const reports = await Promise.all(positionals.map((dir) => readReport(path.join(dir, 'report.json'))));
  let merged;
  try {
    merged = mergeReports(reports);
  } catch (error) {
    if (error instanceof MergeError) throw new UsageError(error.message);
    throw error;
  }
  const written = await writeReports(merged, path.resolve(values['report-dir']));
  console.log(`merged ${reports.length} shards: ${merged.checks.length} checks at ${merged.versions.join(', ')}; wrote ${written.map((file) => path.relative(process.cwd(), file) || file).join(', ')}`);
  // A result a shard lost or none held is an error in the report; the merge says so and fails, as the shard's run did.
  const missing = merged.checks.flatMap((check) => Object.entries(check.results).filter(([, result]) => result.status === 'error' && result.message?.startsWith(NO_RESULT)).map(([version]) => `${check.id} at ${version}`));
  if (missing.length > 0) console.log(`problem: ${missing.length} result(s) missing, reported as errors: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}`);
  if (!values.gate) return missing.length > 0 ? 1 : 0;
  const gate = gateFailures(merged);
  for (const failure of gate.slice(0, GATE_LISTED)) console.log(gateFailureLine(failure));
  if (gate.length > GATE_LISTED) console.log(`unexpected: … and ${gate.length - GATE_LISTED} more in report.json`);
  console.log(gate.length === 0 && missing.length === 0 ? 'gate: passed' : `gate: FAILED — ${gate.length} unexpected result(s)`);
  return gate.length === 0 && missing.length === 0 ? 0 : 1;
}
