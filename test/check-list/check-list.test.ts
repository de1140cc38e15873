import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { CheckDescriptor } from '../../harness/check.ts';
import { readCheckList, renderCheckList } from '../../harness/check-list.ts';
import { REPO_ROOT } from '../../harness/repo-root.ts';
import { updatedCheckList } from './check-list-update.ts';

const run = promisify(execFile);

function check(id: string, title = `the rule of ${id}`): CheckDescriptor {
  return { id, area: id.split('.')[0]!, level: 'spec', spec: '1 §2', since: '1.18', tags: ['state'], title };
}

describe('fixtures/checks.json', () => {
  it('is the suite\'s list: every check as declared, none left out, none added', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'test/check-list/write-check-list.ts', '--check'], { cwd: REPO_ROOT });
    expect(stdout).toMatch(/^fixtures\/checks\.json: \d+ checks, as the suite declares them/);
  }, 120_000);

  it('is sorted, every id once, retired ones apart from the shipped', async () => {
    const list = await readCheckList();
    const ids = list.checks.map((entry) => entry.id);
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a.localeCompare(b)));
    expect(list.retired.filter((retired) => ids.includes(retired.id))).toEqual([]);
  });
});

describe('updatedCheckList', () => {
  const old = { checks: [check('a.one'), check('a.two')], retired: [{ id: 'a.zero', level: 'spec' as const, title: 'gone', retired: 'merged into a.one' }] };

  it('takes the suite\'s metadata: a re-levelled or retitled check shows as changed', () => {
    const relevelled = { ...check('a.two', 'a new title'), level: 'docker' as const };
    expect(updatedCheckList(old, [check('a.one'), relevelled]).checks).toEqual([check('a.one'), relevelled]);
  });

  it('refuses a check that left the suite without a reason, and retires it with one', () => {
    expect(() => updatedCheckList(old, [check('a.one')])).toThrow(/checks left the suite: a\.two; retire them/);
    expect(updatedCheckList(old, [check('a.one')], 'split into a.three and a.four').retired).toContainEqual({ id: 'a.two', level: 'spec', title: 'the rule of a.two', retired: 'split into a.three and a.four' });
  });

  it('refuses a retired id back in the suite', () => {
    expect(() => updatedCheckList(old, [check('a.one'), check('a.two'), check('a.zero')])).toThrow(/retired ids are back in the suite .*: a\.zero/);
  });

  it('renders fields in one order whatever order the declaration gave them', () => {
    const shuffled = { title: 't', tags: ['state'], since: '1.18', spec: '1 §2', level: 'spec', area: 'a', id: 'a.one' } as CheckDescriptor;
    expect(renderCheckList({ checks: [shuffled], retired: [] })).toBe(renderCheckList({ checks: [check('a.one', 't')], retired: [] }));
  });
});
