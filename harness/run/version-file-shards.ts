/**
 * `run --shard I/N`: which (version, suite file) pairs a shard runs. vitest's own sharding hashes a
 * pair's file path only, so the eight versions of one file tie, and the tie keeps the order in which
 * the version projects finished finding their files: a race. Two shard processes could then order a
 * tie differently at the boundary between shards, both run v1.23 of a file and neither its v1.24 (seen
 * on a loaded machine, issue 15 §5). Here the key is version and file, and the order total.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** `v1.24:suites/system/errors.check.ts`: one version project's run of one suite file, the unit vitest shards. */
export function specKey(projectName: string, file: string): string {
  return `${projectName}:${file}`;
}

/** A suite file as a spec key names it: relative to the root, with forward slashes on every system. */
export function relativeFile(root: string, moduleId: string): string {
  return path.relative(root, moduleId).split(path.sep).join('/');
}

/**
 * Shard `index` of `count`: the keys ordered by a hash of each (which spreads every version of a slow
 * file over the shards) then by the key itself, cut into `count` runs of sizes differing by one at most.
 * The same keys give every shard the same order, so the shards cover them once each.
 */
export function shardShare(keys: readonly string[], index: number, count: number): Set<string> {
  const digest = (key: string) => createHash('sha1').update(key).digest('hex');
  const ordered = [...new Set(keys)]
    .map((key) => ({ key, hash: digest(key) }))
    .sort((a, b) => (a.hash === b.hash ? (a.key < b.key ? -1 : 1) : a.hash < b.hash ? -1 : 1));
  const cut = (at: number) => Math.floor((ordered.length * at) / count);
  return new Set(ordered.slice(cut(index - 1), cut(index)).map(({ key }) => key));
}

/** vitest's sequencer with shardShare's split; the order within a shard stays vitest's. */
export class VersionFileSequencer extends BaseSequencer {
  override shard(specs: TestSpecification[]): Promise<TestSpecification[]> {
    const { shard, root } = this.ctx.config;
    if (!shard) return Promise.resolve(specs);
    const keyOf = (spec: TestSpecification) => specKey(spec.project.name, relativeFile(root, spec.moduleId));
    const share = shardShare(specs.map(keyOf), shard.index, shard.count);
    return Promise.resolve(specs.filter((spec) => share.has(keyOf(spec))));
  }
}
