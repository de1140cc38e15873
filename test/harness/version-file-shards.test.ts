/**
 * `run --shard I/N` splits (version, suite file) pairs so that the shards of one run hold each pair
 * once, whatever order vitest found the pairs in (issue 15 §5: two shards both ran one file at 1.23,
 * neither at 1.24, and the merged report lost those results).
 */
import { describe, expect, test } from 'vitest';
import { BaseSequencer, type TestSpecification, type Vitest } from 'vitest/node';
import { shardShare, specKey, VersionFileSequencer } from '../../harness/run/version-file-shards.ts';
import { owedResults, type SuiteFile } from '../../harness/run/run-suite.ts';
import { API_VERSIONS } from '../../protocol/versions.ts';
import type { CheckDescriptor } from '../../harness/check.ts';

const ROOT = '/repo';
const FILES = ['auth', 'errors', 'info', 'ping', 'requests', 'version', 'versioning'].map((name) => `suites/system/${name}.check.ts`);

/** What vitest hands a sequencer: a version project's run of one file. */
function spec(version: string, file: string): TestSpecification {
  return { moduleId: `${ROOT}/${file}`, project: { name: `v${version}` } } as TestSpecification;
}

/** The pairs as vitest lists them when the version projects finish finding their files in `versions` order. */
function specsFoundIn(versions: readonly string[]): TestSpecification[] {
  return versions.flatMap((version) => FILES.map((file) => spec(version, file)));
}

async function shardOf(Sequencer: typeof BaseSequencer, specs: TestSpecification[], index: number, count: number): Promise<string[]> {
  const sequencer = new Sequencer({ config: { root: ROOT, shard: { index, count } } } as unknown as Vitest);
  return (await sequencer.shard(specs)).map((found) => `${found.project.name}:${found.moduleId.slice(ROOT.length + 1)}`).sort();
}

describe('shardShare', () => {
  test('the shares of N shards hold every key once, in sizes differing by one at most', () => {
    const keys = API_VERSIONS.flatMap((version) => FILES.map((file) => specKey(`v${version}`, file)));
    for (let count = 1; count <= 7; count++) {
      const shares = Array.from({ length: count }, (_, index) => [...shardShare(keys, index + 1, count)]);
      expect(shares.flat().sort()).toEqual([...keys].sort());
      const sizes = shares.map((share) => share.length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
  });

  test('a share does not depend on the order of the keys', () => {
    const keys = API_VERSIONS.flatMap((version) => FILES.map((file) => specKey(`v${version}`, file)));
    const shuffled = [...keys].reverse();
    for (const index of [1, 2, 3]) expect([...shardShare(shuffled, index, 3)].sort()).toEqual([...shardShare(keys, index, 3)].sort());
  });
});

describe('VersionFileSequencer', () => {
  test("vitest's own sequencer splits one file's versions by the order they were found in: the race it replaces", async () => {
    const [one, other] = [await shardOf(BaseSequencer, specsFoundIn(['1.23', '1.24']), 1, 2), await shardOf(BaseSequencer, specsFoundIn(['1.24', '1.23']), 1, 2)];
    // If this fails, vitest keys its shards on the project too: VersionFileSequencer may go.
    expect(one).not.toEqual(other);
  });

  test('the same shard whatever order the versions were found in, and the shards together hold every pair once', async () => {
    const found = specsFoundIn(['1.23', '1.24']);
    const first = await shardOf(VersionFileSequencer, found, 1, 2);
    expect(await shardOf(VersionFileSequencer, specsFoundIn(['1.24', '1.23']), 1, 2)).toEqual(first);
    const second = await shardOf(VersionFileSequencer, found, 2, 2);
    expect([...first, ...second].sort()).toEqual(found.map((pair) => `${pair.project.name}:${pair.moduleId.slice(ROOT.length + 1)}`).sort());
  });
});

describe('owedResults', () => {
  const check = (id: string) => ({ id, area: 'system', title: id, spec: '1 §3', since: '1.18', tags: [], level: 'spec' }) as CheckDescriptor;
  const suite: SuiteFile[] = FILES.map((file, index) => ({ file, moduleId: `${ROOT}/${file}`, checks: [check(`system.f${index}.one`), check(`system.f${index}.two`)] }));
  const pairsOf = (owed: ReturnType<typeof owedResults>) => owed.flatMap(({ version, checks }) => checks.map(({ id }) => `${id} ${version}`));

  test('the shards of a run owe, together, what the unsharded run owes, each result once', () => {
    const selected = (id: string) => !id.endsWith('.two');
    const whole = pairsOf(owedResults(suite, ['1.23', '1.24', '1.25'], selected));
    expect(whole).toHaveLength(FILES.length * 3);
    const sharded = [1, 2, 3].flatMap((index) => pairsOf(owedResults(suite, ['1.23', '1.24', '1.25'], selected, `${index}/3`)));
    expect(sharded.sort()).toEqual(whole.sort());
  });
});
