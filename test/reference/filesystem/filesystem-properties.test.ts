/**
 * Properties over random sequences of writes, mkdirs and removes on random image layers (themselves
 * made by such sequences and committed, so they carry whiteouts and opaque directories):
 * - the layered filesystem and a plain Map model agree on every outcome and on the visible tree;
 * - commit → layer.tar → layer → a new filesystem on the same image shows the same tree;
 * - changes() equals dockerd's naive diff of the image tree against the container tree, computed
 *   here from two plain snapshots.
 * The seed comes from SHIPSHAPE_SEED: `SHIPSHAPE_SEED=<seed> npx vitest run --project unit test/reference/filesystem`.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { ContainerFilesystem, EntryStat } from '../../../reference/engine/filesystem/container-filesystem.ts';
import { ImageLayerStack } from '../../../reference/engine/filesystem/image-layer-stack.ts';
import { layerFromTar, layerToTar } from '../../../reference/engine/filesystem/layer-tar.ts';
import type { Layer } from '../../../reference/engine/filesystem/layer.ts';
import { LayeredFilesystem } from '../../../reference/engine/filesystem/layered-filesystem.ts';
import { codeOf } from './error-codes.ts';

const seed = Number(process.env.SHIPSHAPE_SEED ?? 424242);
const withSeed = (name: string) => `${name} (seed ${seed})`;

type Operation =
  | { op: 'write'; path: string; data: string; append: boolean }
  | { op: 'mkdir'; path: string; parents: boolean }
  | { op: 'remove'; path: string; recursive: boolean; force: boolean };

/** a small namespace, so that operations collide: /a, /a/b, /c/a/b … */
const pathArbitrary = fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 3 }).map((parts) => `/${parts.join('/')}`);
/** mostly shallow: what deletes and recreates whole directories */
const shallowPathArbitrary = fc.array(fc.constantFrom('a', 'b'), { minLength: 1, maxLength: 2 }).map((parts) => `/${parts.join('/')}`);
const operationArbitrary: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ op: fc.constant('write' as const), path: pathArbitrary, data: fc.string({ maxLength: 4 }), append: fc.boolean() }),
  fc.record({ op: fc.constant('mkdir' as const), path: pathArbitrary, parents: fc.boolean() }),
  fc.record({ op: fc.constant('mkdir' as const), path: shallowPathArbitrary, parents: fc.boolean() }),
  fc.record({ op: fc.constant('remove' as const), path: pathArbitrary, recursive: fc.boolean(), force: fc.boolean() }),
  fc.record({ op: fc.constant('remove' as const), path: shallowPathArbitrary, recursive: fc.constant(true), force: fc.boolean() }),
);
const operationsArbitrary = fc.array(operationArbitrary, { maxLength: 25 });

/** Whole seconds, so that mtimes survive a tar. */
function secondsClock(start: number): () => Date {
  let tick = start;
  return () => new Date(Date.UTC(2020, 0, 1) + ++tick * 1000);
}

/** 'ok', or the code the operation is refused with. */
function apply(fs: ContainerFilesystem, operation: Operation): string {
  const code = codeOf(() => {
    if (operation.op === 'write') fs.writeFile(operation.path, operation.data, { append: operation.append });
    else if (operation.op === 'mkdir') fs.mkdir(operation.path, { parents: operation.parents });
    else fs.remove(operation.path, { recursive: operation.recursive, force: operation.force });
  });
  return code ?? 'ok';
}

/** The image layers: each made by operations on the layers before, then committed. */
function imageOf(layerOperations: Operation[][]): ImageLayerStack {
  const layers: Layer[] = [];
  layerOperations.forEach((operations, index) => {
    const fs = new LayeredFilesystem(new ImageLayerStack(layers), { clock: secondsClock(index * 1000) });
    for (const operation of operations) apply(fs, operation);
    layers.push(fs.commitLayer());
  });
  return new ImageLayerStack(layers);
}

interface Snapshot {
  kind: EntryStat['kind'];
  mode: number;
  mtime: number;
  size: number;
  data: string;
}

/** Everything the filesystem shows, by path, through the port alone (the mount points left out). */
function visibleTree(fs: ContainerFilesystem): Map<string, Snapshot> {
  const tree = new Map<string, Snapshot>();
  const visit = (directory: string) => {
    for (const name of fs.list(directory)) {
      const path = directory === '/' ? `/${name}` : `${directory}/${name}`;
      if (['/dev', '/proc', '/sys'].includes(path)) continue;
      const stat = fs.lstat(path) as EntryStat;
      tree.set(path, { kind: stat.kind, mode: stat.mode, mtime: stat.mtime.getTime(), size: stat.size, data: stat.kind === 'file' ? fs.readFile(path).toString() : '' });
      if (stat.kind === 'directory') visit(path);
    }
  };
  visit('/');
  return tree;
}

/** The model: visible paths to kind and content, with the port's rules and errors. */
class MapModel {
  constructor(readonly entries: Map<string, { kind: 'file' | 'directory'; data: string }>) {}

  apply(operation: Operation): string {
    const blocked = this.blockedAncestor(operation.path);
    const existing = this.entries.get(operation.path);
    switch (operation.op) {
      case 'write':
        if (blocked) return blocked;
        if (existing?.kind === 'directory') return 'EISDIR';
        this.entries.set(operation.path, { kind: 'file', data: operation.append && existing ? existing.data + operation.data : operation.data });
        return 'ok';
      case 'mkdir':
        if (operation.parents) {
          const parts = operation.path.split('/').slice(1);
          for (let depth = 1; depth < parts.length; depth += 1) {
            const ancestor = `/${parts.slice(0, depth).join('/')}`;
            const entry = this.entries.get(ancestor);
            if (entry?.kind === 'file') return 'ENOTDIR';
            if (entry === undefined) this.entries.set(ancestor, { kind: 'directory', data: '' });
          }
          if (existing !== undefined) return existing.kind === 'directory' ? 'ok' : 'EEXIST';
        } else {
          if (blocked) return blocked;
          if (existing !== undefined) return 'EEXIST';
        }
        this.entries.set(operation.path, { kind: 'directory', data: '' });
        return 'ok';
      case 'remove': {
        if (blocked) return blocked === 'ENOENT' && operation.force ? 'ok' : blocked;
        if (existing === undefined) return operation.force ? 'ok' : 'ENOENT';
        const inside = [...this.entries.keys()].filter((key) => key.startsWith(`${operation.path}/`));
        if (inside.length > 0 && !operation.recursive) return 'ENOTEMPTY';
        for (const key of [operation.path, ...inside]) this.entries.delete(key);
        return 'ok';
      }
    }
  }

  /** the error a path's parents give: a missing one ENOENT, a file ENOTDIR, from the top */
  private blockedAncestor(path: string): string | undefined {
    const parts = path.split('/').slice(1);
    for (let depth = 1; depth < parts.length; depth += 1) {
      const entry = this.entries.get(`/${parts.slice(0, depth).join('/')}`);
      if (entry === undefined) return 'ENOENT';
      if (entry.kind === 'file') return 'ENOTDIR';
    }
    return undefined;
  }

  tree(): Array<[string, string]> {
    return [...this.entries].map(([path, entry]): [string, string] => [path, `${entry.kind} ${entry.data}`]).sort();
  }
}

function modelOf(fs: ContainerFilesystem): MapModel {
  const entries = new Map<string, { kind: 'file' | 'directory'; data: string }>();
  for (const [path, snapshot] of visibleTree(fs)) entries.set(path, { kind: snapshot.kind === 'directory' ? 'directory' : 'file', data: snapshot.data });
  return new MapModel(entries);
}

const modelView = (fs: ContainerFilesystem) =>
  [...visibleTree(fs)].map(([path, snapshot]): [string, string] => [path, `${snapshot.kind} ${snapshot.data}`]).sort();

/**
 * dockerd's naive diff (pkg/archive FileInfo.addChanges) over two snapshots: added trees, deleted
 * tops, stat differences (no mtime or size for directories), and directories with changes inside.
 */
function naiveChanges(before: Map<string, Snapshot>, after: Map<string, Snapshot>): Array<{ Path: string; Kind: number }> {
  const changes: Array<{ Path: string; Kind: number }> = [];
  const childrenOf = (tree: Map<string, Snapshot>, directory: string) =>
    [...tree.keys()].filter((path) => path.startsWith(directory === '/' ? '/' : `${directory}/`) && !path.slice(directory === '/' ? 1 : directory.length + 1).includes('/') && path !== directory);
  const walk = (path: string, old: Snapshot | undefined, now: Snapshot) => {
    const start = changes.length;
    let recorded = false;
    if (old === undefined) {
      changes.push({ Path: path, Kind: 1 });
      recorded = true;
    } else if (old.kind !== now.kind || old.mode !== now.mode || (old.kind !== 'directory' && (old.mtime !== now.mtime || old.size !== now.size))) {
      changes.push({ Path: path, Kind: 0 });
      recorded = true;
    }
    if (now.kind !== 'directory') return;
    const oldChildren = old?.kind === 'directory' ? new Set(childrenOf(before, path)) : new Set<string>();
    for (const child of childrenOf(after, path)) {
      walk(child, oldChildren.has(child) ? before.get(child) : undefined, after.get(child) as Snapshot);
      oldChildren.delete(child);
    }
    for (const gone of oldChildren) changes.push({ Path: gone, Kind: 2 });
    if (changes.length > start && !recorded && path !== '/') changes.push({ Path: path, Kind: 0 });
  };
  const root: Snapshot = { kind: 'directory', mode: 0, mtime: 0, size: 0, data: '' };
  walk('/', root, root);
  return changes.sort((a, b) => Buffer.compare(Buffer.from(a.Path), Buffer.from(b.Path)));
}

describe('the layered filesystem against models', () => {
  const scenario = fc.record({ image: fc.array(operationsArbitrary, { minLength: 0, maxLength: 3 }), container: operationsArbitrary });

  test(withSeed('writes, mkdirs and removes give the same outcomes and tree as a plain map'), () => {
    fc.assert(
      fc.property(scenario, ({ image, container }) => {
        const fs = new LayeredFilesystem(imageOf(image), { clock: secondsClock(10_000) });
        const model = modelOf(fs);
        for (const operation of container) expect(apply(fs, operation), JSON.stringify(operation)).toBe(model.apply(operation));
        expect(modelView(fs)).toEqual(model.tree());
      }),
      { seed, numRuns: 400 },
    );
  });

  test(withSeed('commit → layer.tar → layer, stacked on the same image, shows the same tree'), async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ image, container }) => {
        const stack = imageOf(image);
        const fs = new LayeredFilesystem(stack, { clock: secondsClock(10_000) });
        for (const operation of container) apply(fs, operation);
        const layer = await layerFromTar(await layerToTar(fs.commitLayer()));
        expect(layer.entries()).toEqual(fs.commitLayer().entries());
        const next = new LayeredFilesystem(new ImageLayerStack([...stack.layers, layer]));
        expect(visibleTree(next)).toEqual(visibleTree(fs));
      }),
      { seed, numRuns: 300 },
    );
  });

  test(withSeed('changes() is dockerd`s naive diff of the image tree and the container tree'), () => {
    fc.assert(
      fc.property(scenario, ({ image, container }) => {
        const stack = imageOf(image);
        const fs = new LayeredFilesystem(stack, { clock: secondsClock(10_000) });
        for (const operation of container) apply(fs, operation);
        expect(fs.changes()).toEqual(naiveChanges(visibleTree(new LayeredFilesystem(stack)), visibleTree(fs)));
      }),
      { seed, numRuns: 400 },
    );
  });
});
