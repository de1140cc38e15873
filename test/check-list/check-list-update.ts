/**
 * fixtures/checks.json brought up to the suite: the checks as declared now, and every id that left the
 * suite moved to `retired` with the reason given. A retired id never returns with another meaning.
 */
import type { CheckDescriptor } from '../../harness/check.ts';
import type { CheckList } from '../../harness/check-list.ts';

export function updatedCheckList(old: CheckList, suite: CheckDescriptor[], retireReason?: string): CheckList {
  const suiteIds = new Set(suite.map((check) => check.id));
  const reused = old.retired.filter((retired) => suiteIds.has(retired.id)).map((retired) => retired.id);
  if (reused.length > 0) throw new Error(`retired ids are back in the suite (an id never changes meaning: give the check a new id): ${reused.join(', ')}`);
  const gone = old.checks.filter((check) => !suiteIds.has(check.id));
  if (gone.length > 0 && retireReason === undefined) {
    throw new Error(`checks left the suite: ${gone.map((check) => check.id).join(', ')}; retire them with npm run checks:write -- --retire-reason 'WHY'`);
  }
  return {
    checks: suite,
    retired: [...old.retired, ...gone.map(({ id, level, title }) => ({ id, level, title, retired: retireReason ?? '' }))],
  };
}
