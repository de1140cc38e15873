/**
 * `shipshape certify --target … [--api RANGE]`: every check at every version of the range (no --only,
 * --level, --expect, --shard or --repeat: it refuses flags that narrow the run), then a certificate in
 * the report directory: the run's reports, a badge, and a manifest with the digests of them all.
 * Exits 0 when the target conforms (every spec-level result passed), 1 when not, 2 and 130 as run does.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CommandSpec } from './command-help.ts';
import { parseFlags } from './parse-flags.ts';
import { UsageError } from './usage-error.ts';
import { RUN_COMMAND, runCommand } from './run-command.ts';
import { parseVersionList } from '../../protocol/versions.ts';
import { CERTIFIED_FILES, MANIFEST_FILE } from '../certify/certificate.ts';
import { tallyText } from '../certify/certificate-verdict.ts';
import { thisRelease } from '../certify/verify-certificate.ts';
import { writeCertificate } from '../certify/write-certificate.ts';
import type { Report } from '../report/types.ts';

/** run's flags that choose part of the suite or judge it: a certificate speaks for all of it. */
const NARROWING_FLAGS = ['only', 'level', 'expect', 'shard', 'repeat', 'profile'] as const;

const { only, level, expect, shard, repeat, profile, ...CERTIFY_FLAGS } = RUN_COMMAND.flags;

export const CERTIFY_COMMAND = {
  name: 'certify',
  description: [
    'Runs every check at every version of the range against a target and writes a certificate: report.json, junit.xml, report.html, summary.md, badge.svg and manifest.json (the tool version, the check list\'s digest, the target\'s /version and /info, the command line, the times, the seed, and the sha256 of each file). Conformance (the spec-level checks) decides it; Docker compatibility is shown beside it. Flags that narrow or judge the run (--only, --level, --expect, --shard, --repeat, --profile) are refused. Exits 0 when the target conforms, 1 when it does not, 2 when the target is unreachable or an argument is wrong, 130 when interrupted.',
  ],
  flags: {
    ...CERTIFY_FLAGS,
    'report-dir': { type: 'string', value: 'DIR', default: 'certificate', help: 'where the certificate is written (made if missing); check it with shipshape verify DIR' },
  },
  examples: ['shipshape certify --target unix:///var/run/docker.sock --dialect docker', 'shipshape certify --target reference --api 1.24-1.25 --report-dir certificate-ref'],
} as const satisfies CommandSpec;

function refuseNarrowing(args: string[]): void {
  for (const arg of args) {
    if (arg === '--') break;
    const flag = NARROWING_FLAGS.find((name) => arg === `--${name}` || arg.startsWith(`--${name}=`));
    if (flag) throw new UsageError(`certify runs every check at every version of the range: --${flag} would narrow or judge it (shipshape run takes it)`);
  }
}

/** The run's arguments: the flags certify was given, as given, but the report directory. */
function runArguments(values: Record<string, string | boolean | undefined>, reportDir: string): string[] {
  const args = Object.entries(values).flatMap(([name, value]) => {
    if (name === 'report-dir' || value === undefined || value === false) return [];
    return value === true ? [`--${name}`] : [`--${name}`, value];
  });
  return [...args, '--report-dir', reportDir];
}

/** The command line for the manifest, --password's value left out. */
function recordedCommand(args: string[]): string[] {
  return ['shipshape', 'certify', ...args.map((arg, at) => (args[at - 1] === '--password' ? '***' : arg.replace(/^(--password=).*/, '$1***')))];
}

export async function certifyCommand(args: string[]): Promise<number> {
  refuseNarrowing(args);
  const { values } = parseFlags(args, CERTIFY_COMMAND);
  const versions = parseVersionList(values.api);
  const dir = path.resolve(values['report-dir']);
  // A certificate left from an earlier run must not pass for this run's.
  await Promise.all([...CERTIFIED_FILES, MANIFEST_FILE].map((file) => fs.rm(path.join(dir, file), { force: true })));
  const status = await runCommand(runArguments(values, dir), 'certify');
  const report = await fs.readFile(path.join(dir, 'report.json'), 'utf8').then((text) => JSON.parse(text) as Report, () => undefined);
  // No report: the target was never reached or the arguments were wrong; run has said why.
  if (report === undefined) return status;

  const written = await writeCertificate(dir, report, versions, recordedCommand(args), await thisRelease());
  const shown = path.relative(process.cwd(), dir) || dir;
  process.stdout.write(`certificate: ${report.target.url} ${written.summary}; Docker compatibility (not part of the claim): docker results ${tallyText(written.docker)}\n`);
  process.stdout.write(`certificate: ${shown}/ (${MANIFEST_FILE}, badge.svg and the reports); check it with: shipshape verify ${shown}${written.conformant ? '' : ' (it lists each failed result)'}\n`);
  if (status === 130 || status === 2) return status;
  return written.conformant ? 0 : 1;
}
