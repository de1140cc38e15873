/**
 * `shipshape coverage [--out DIR] [--strict]`: maps the spec inventory to the checks that cover it
 * (their `covers` metadata, collected as `shipshape list` does) and the written waivers; prints the
 * totals per spec document and writes coverage.md and coverage.json in DIR (default reports/coverage).
 * Exits 0, or with --strict 1 when an item is neither covered nor waived or a check or waiver names
 * an id the inventory does not hold.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { shippedChecks } from './list-command.ts';
import type { CommandSpec } from './command-help.ts';
import { parseFlags } from './parse-flags.ts';
import { REPO_ROOT } from '../repo-root.ts';
import { isComplete, mapCoverage, type CoverageMap } from '../coverage/coverage-map.ts';
import { readInventory, readWaivers } from '../coverage/spec-inventory.ts';
import { renderCoverageMarkdown } from '../coverage/render-coverage-markdown.ts';

function summaryLines(map: CoverageMap): string[] {
  const lines = map.documents.map(
    ({ document, items, covered, waived, uncovered }) => `spec/${document}: ${items} items, ${covered} covered, ${waived} waived, ${uncovered} not covered`,
  );
  lines.push(...map.unknownCovers.map(({ check, id }) => `${check} covers ${JSON.stringify(id)}, which the inventory does not hold`));
  lines.push(...map.unknownWaivers.map((waiver) => `the waiver ${JSON.stringify(waiver.id)} matches no inventory item`));
  return lines;
}

export const COVERAGE_COMMAND = {
  name: 'coverage',
  description: ["Maps every item of the spec inventory (fixtures/spec-inventory.json) to the checks that name it in `covers` and to the waivers (fixtures/coverage-waivers.json); prints the totals per spec document."],
  flags: {
    out: { type: 'string', value: 'DIR', default: 'reports/coverage', help: 'where coverage.md and coverage.json are written (made if missing)' },
    strict: { type: 'boolean', default: false, help: 'exit 1 when an item is neither covered nor waived, or a check or waiver names an id the inventory lacks' },
  },
  examples: ['shipshape coverage --strict --out reports/coverage'],
} as const satisfies CommandSpec;

export async function coverageCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, COVERAGE_COMMAND);
  const [inventory, waivers, checks] = await Promise.all([readInventory(REPO_ROOT), readWaivers(REPO_ROOT), shippedChecks()]);
  const map = mapCoverage(inventory, checks, waivers);
  await fs.mkdir(values.out, { recursive: true });
  const written = [path.join(values.out, 'coverage.md'), path.join(values.out, 'coverage.json')];
  await Promise.all([fs.writeFile(written[0]!, renderCoverageMarkdown(map)), fs.writeFile(written[1]!, `${JSON.stringify(map, null, 2)}\n`)]);
  for (const line of summaryLines(map)) console.log(`coverage: ${line}`);
  console.log(`coverage: wrote ${written.join(', ')}`);
  return values.strict && !isComplete(map) ? 1 : 0;
}
