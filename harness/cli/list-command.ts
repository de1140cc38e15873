/**
 * `shipshape list [--api V] [--json]`: the checks and their metadata, as fixtures/checks.json freezes
 * them (a test keeps it equal to the suite), so nothing is collected or run.
 */
import type { CommandSpec } from './command-help.ts';
import { parseFlags } from './parse-flags.ts';
import { UsageError } from './usage-error.ts';
import { appliesAt, isVersion } from '../../protocol/versions.ts';
import type { CheckDescriptor } from '../check.ts';
import { readCheckList } from '../check-list.ts';

/** The checks this release ships, by id. */
export async function shippedChecks(): Promise<CheckDescriptor[]> {
  return (await readCheckList()).checks;
}

export const LIST_COMMAND = {
  name: 'list',
  description: ['One line per check: id, the versions it applies to, its level (spec or docker), its spec passage, tags, what it requires of a target, and its title; or all of its metadata as JSON.'],
  flags: {
    api: { type: 'string', value: 'V', defaultText: 'every version', help: 'only the checks that apply at this API version (1.24)' },
    json: { type: 'boolean', default: false, help: 'print the checks\' metadata as a JSON array' },
  },
  examples: ['shipshape list --api 1.24', "shipshape list --json"],
} as const satisfies CommandSpec;

export async function listCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, LIST_COMMAND);
  if (values.api !== undefined && !isVersion(values.api)) throw new UsageError(`--api: expected one version like 1.24, got ${JSON.stringify(values.api)}`);
  const checks = (await shippedChecks()).filter((check) => values.api === undefined || appliesAt(values.api, check.since, check.until));
  if (values.json) {
    process.stdout.write(`${JSON.stringify(checks, null, 2)}\n`);
    return 0;
  }
  for (const check of checks) {
    const range = check.until ? `${check.since}–${check.until}` : `${check.since}+`;
    const requires = check.requires?.length ? ` requires ${check.requires.join(',')}` : '';
    process.stdout.write(`${check.id.padEnd(48)} ${range.padEnd(10)} ${check.level.padEnd(6)} §${check.spec.padEnd(8)} [${check.tags.join(',')}]${requires}  ${check.title}\n`);
  }
  process.stdout.write(`${checks.length} checks${values.api ? ` at ${values.api}` : ''}\n`);
  return 0;
}
