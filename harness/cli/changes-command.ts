/**
 * `shipshape changes FROM TO [--json]`: what a client sees change between two API versions, from
 * the version rules of the spec inventory and the checks' since/until (fixtures/checks.json, as `shipshape list` reads it).
 */
import { shippedChecks } from './list-command.ts';
import type { CommandSpec } from './command-help.ts';
import { parseFlags } from './parse-flags.ts';
import { UsageError } from './usage-error.ts';
import { REPO_ROOT } from '../repo-root.ts';
import { API_VERSIONS, type ApiVersion } from '../../protocol/versions.ts';
import { readInventory } from '../coverage/spec-inventory.ts';
import { renderVersionChanges, versionChanges } from '../coverage/version-changes.ts';

export const CHANGES_COMMAND = {
  name: 'changes',
  arguments: 'FROM TO',
  description: [`FROM, TO: two API versions of ${API_VERSIONS.join(', ')}. Lists the spec inventory's version rules between them, with the checks that assert each, and the checks that apply at one of the two versions only.`],
  flags: {
    json: { type: 'boolean', default: false, help: 'print the changes as JSON instead of text' },
  },
  examples: ['shipshape changes 1.23 1.24', 'shipshape changes 1.18 1.25 --json'],
} as const satisfies CommandSpec;

function knownVersion(text: string | undefined): ApiVersion {
  const version = API_VERSIONS.find((known) => known === text);
  if (!version) throw new UsageError(`expected two API versions of ${API_VERSIONS.join(', ')}: shipshape changes 1.23 1.24, got ${JSON.stringify(text ?? '')}`);
  return version;
}

export async function changesCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(args, CHANGES_COMMAND);
  if (positionals.length !== 2) throw new UsageError('expected two API versions: shipshape changes 1.23 1.24 [--json]');
  const [from, to] = positionals.map(knownVersion) as [ApiVersion, ApiVersion];
  const [inventory, checks] = await Promise.all([readInventory(REPO_ROOT), shippedChecks()]);
  const changes = versionChanges(from, to, inventory, checks);
  process.stdout.write(values.json ? `${JSON.stringify(changes, null, 2)}\n` : renderVersionChanges(changes));
  return 0;
}
