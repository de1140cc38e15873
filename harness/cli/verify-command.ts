/**
 * `shipshape verify DIR`: checks a certificate that `shipshape certify` wrote against this release;
 * one verdict line and exit 0, or each thing missing, failed or altered and exit 1.
 */
import type { CommandSpec } from './command-help.ts';
import { parseFlags } from './parse-flags.ts';
import { UsageError } from './usage-error.ts';
import { thisRelease, verifyCertificate } from '../certify/verify-certificate.ts';

export const VERIFY_COMMAND = {
  name: 'verify',
  arguments: 'DIR',
  description: [
    "DIR: a certificate directory (shipshape certify). Checks every file's sha256 against its manifest, that its check list is the one this release ships, and that every spec-level check has a result at every claimed version with none failed or erred, from a run neither narrowed, sharded nor judged with expectations. Prints one verdict line and exits 0, or what is missing, failed or altered and exits 1.",
  ],
  flags: {},
  examples: ['shipshape verify certificate'],
} as const satisfies CommandSpec;

export async function verifyCommand(args: string[]): Promise<number> {
  const { positionals } = parseFlags(args, VERIFY_COMMAND);
  if (positionals.length !== 1) throw new UsageError('expected one certificate directory: shipshape verify DIR');
  const dir = positionals[0]!;
  const verification = await verifyCertificate(dir, await thisRelease());
  for (const line of verification.lines) process.stdout.write(`${verification.verified ? '' : '✗ '}${line}\n`);
  if (!verification.verified) process.stdout.write(`NOT verified: ${verification.problems} problem${verification.problems === 1 ? '' : 's'} with ${dir}\n`);
  return verification.verified ? 0 : 1;
}
