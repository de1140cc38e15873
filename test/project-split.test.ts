/**
 * The tests are split in two vitest projects (issue 25): `unit`, in process, the developer loop in
 * `npm test`; and `process`, the tests that run whole processes (`npm run test:process`, its own step in
 * .ci/run). The split is vitest.config.ts's PROCESS_TEST_FILES. Every test file under test/ is in
 * exactly one of the two, as vitest itself finds them.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { createVitest } from 'vitest/node';

const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Every file under test/ that vitest would take for a test file (`*.test.*` or `*.spec.*`), relative to the root. */
async function testFilesOnDisk(): Promise<string[]> {
  const entries = await fs.readdir(path.join(REPO_ROOT, 'test'), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(test|spec)\.[cm]?[jt]sx?$/.test(entry.name))
    .map((entry) => path.relative(REPO_ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

it('each test file under test/ is in unit or in process, not in both and not in neither', { timeout: 60_000 }, async () => {
  const vitest = await createVitest('test', { root: REPO_ROOT, config: path.join(REPO_ROOT, 'vitest.config.ts'), project: ['unit', 'process'], watch: false }, { logLevel: 'error' });
  try {
    const specifications = await vitest.globTestSpecifications();
    const projectsOf = new Map<string, string[]>();
    for (const specification of specifications) {
      const file = path.relative(REPO_ROOT, specification.moduleId).split(path.sep).join('/');
      projectsOf.set(file, [...(projectsOf.get(file) ?? []), specification.project.name]);
    }
    const onDisk = await testFilesOnDisk();
    expect(onDisk.filter((file) => !projectsOf.has(file)), 'in neither unit nor process').toEqual([]);
    expect([...projectsOf].filter(([, projects]) => projects.length > 1).map(([file]) => file), 'in both unit and process').toEqual([]);
    const inProcess = [...projectsOf].filter(([, projects]) => projects.includes('process')).map(([file]) => file);
    // a sanity floor: the CLI's, the clients', the fuzz's
    expect(inProcess).toEqual(expect.arrayContaining(['test/cli/package-install.test.ts', 'test/clients/python-sdk.test.ts', 'test/fuzz/serve-fuzz.test.ts']));
  } finally {
    await vitest.close();
  }
});
