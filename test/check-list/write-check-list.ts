/**
 * `npm run checks:write [-- --retire-reason WHY]`: writes fixtures/checks.json from the suite.
 * `--check` writes nothing: it exits 1, saying what differs, when the file is not the suite's list.
 */
import fs from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { CHECK_LIST_FILE, readCheckList, renderCheckList, type CheckList } from '../../harness/check-list.ts';
import { collectSuite } from '../../harness/run/run-suite.ts';
import { updatedCheckList } from './check-list-update.ts';

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false }, 'retire-reason': { type: 'string' } } });
const old: CheckList = await readCheckList().catch((error: NodeJS.ErrnoException) => {
  if (error.code === 'ENOENT' && !values.check) return { checks: [], retired: [] };
  throw error;
});
const suite = (await collectSuite()).flatMap((file) => file.checks);
const text = renderCheckList(updatedCheckList(old, suite, values['retire-reason']));
if (values.check) {
  const written = await fs.readFile(CHECK_LIST_FILE, 'utf8');
  if (written !== text) {
    const wanted = JSON.parse(text) as CheckList;
    const changed = wanted.checks.filter((check) => JSON.stringify(check) !== JSON.stringify(old.checks.find((known) => known.id === check.id))).map((check) => check.id);
    process.stderr.write(`fixtures/checks.json is not the suite's list; checks new or changed: ${changed.join(', ') || 'none (order or retired ids)'}. Run npm run checks:write and review the diff.\n`);
    process.exit(1);
  }
  process.stdout.write(`fixtures/checks.json: ${suite.length} checks, as the suite declares them\n`);
} else {
  await fs.writeFile(CHECK_LIST_FILE, text);
  process.stdout.write(`fixtures/checks.json: ${suite.length} checks written\n`);
}
