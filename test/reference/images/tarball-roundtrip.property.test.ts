/**
 * Property: random small filesystem changes (files added, modified, deleted, under directories old
 * and new) made in a container's layered filesystem are reported by changes() with the right Kind
 * (0 modified, 1 added, 2 deleted, and unchanged parents of a change as modified); committed as
 * layers of a few images stacked on busybox, saved and loaded into a fresh store, the images come
 * back with the same ids and parents and export the same tree.
 * The seed comes from SHIPSHAPE_SEED: `SHIPSHAPE_SEED=<seed> npx vitest run --project unit test/reference/images`.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CHANGE_ADD, CHANGE_DELETE, CHANGE_MODIFY, type FilesystemChange } from '../../../reference/engine/filesystem/filesystem-changes.ts';
import { LayeredFilesystem } from '../../../reference/engine/filesystem/layered-filesystem.ts';
import { loadImages } from '../../../reference/engine/model/images/image-tarball-load.ts';
import { saveImages } from '../../../reference/engine/model/images/image-tarball-save.ts';
import type { Image } from '../../../reference/engine/model/images/image.ts';
import { imageStore } from './tarball-images.ts';

const seed = Number(process.env.SHIPSHAPE_SEED ?? 424242);
const withSeed = (name: string) => `${name} (seed ${seed})`;

/** where changes are made: new directories, and /etc, which busybox's layer holds */
const DIRECTORIES = ['/srv', '/srv/a', '/srv/a/b', '/opt', '/etc'];
const NAMES = ['one', 'two', 'three'];
/** the existing paths a change may modify or delete: under these, or directly in /etc */
const CHANGEABLE = /^\/(?:srv|opt)(?:\/|$)|^\/etc\/[^/]+$/;

/** Choices, taken modulo what exists when the change is made. */
type Choice = { op: 'add'; directory: number; name: number; data: string } | { op: 'modify'; target: number; data: string } | { op: 'delete'; target: number };

const choiceArbitrary: fc.Arbitrary<Choice> = fc.oneof(
  fc.record({ op: fc.constant('add' as const), directory: fc.nat(), name: fc.nat(), data: fc.string({ maxLength: 6 }) }),
  fc.record({ op: fc.constant('modify' as const), target: fc.nat(), data: fc.string({ maxLength: 6 }) }),
  fc.record({ op: fc.constant('delete' as const), target: fc.nat() }),
);
/** each step's changes become one image's layer */
const stepsArbitrary = fc.array(fc.array(choiceArbitrary, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 3 });

/** Whole seconds, so that mtimes survive a tar. */
function secondsClock(): () => Date {
  let tick = 0;
  return () => new Date(Date.UTC(2024, 0, 1) + ++tick * 1000);
}

/** Every path of a filesystem with its kind, parents first. */
function tree(fs: LayeredFilesystem, directory = '/'): Map<string, string> {
  const paths = new Map<string, string>();
  for (const name of fs.list(directory)) {
    const path = directory === '/' ? `/${name}` : `${directory}/${name}`;
    const kind = fs.lstat(path)?.kind ?? 'missing';
    paths.set(path, kind);
    if (kind === 'directory') for (const [below, belowKind] of tree(fs, path)) paths.set(below, belowKind);
  }
  return paths;
}

const ancestors = (path: string) => path.split('/').slice(1, -1).map((_, index, parts) => `/${parts.slice(0, index + 1).join('/')}`);
const isWithin = (path: string, root: string) => path === root || path.startsWith(`${root}/`);

/**
 * Makes the chosen changes in `fs`, one per path at most, and answers the changes they must show:
 * each path its kind, each existing parent of one modified.
 */
function makeChanges(fs: LayeredFilesystem, choices: Choice[]): FilesystemChange[] {
  const before = tree(fs);
  const expected = new Map<string, FilesystemChange['Kind']>();
  const deleted: string[] = [];
  const free = (path: string) => ![...expected.keys()].some((touched) => isWithin(touched, path) || isWithin(path, touched)) && !deleted.some((gone) => isWithin(path, gone));
  const record = (path: string, kind: FilesystemChange['Kind']) => {
    expected.set(path, kind);
    for (const parent of ancestors(path)) if (!expected.has(parent)) expected.set(parent, before.has(parent) ? CHANGE_MODIFY : CHANGE_ADD);
  };
  const existing = (kinds: string[]) => [...before].filter(([path, kind]) => CHANGEABLE.test(path) && kinds.includes(kind) && free(path)).map(([path]) => path);

  for (const choice of choices) {
    if (choice.op === 'add') {
      const directory = DIRECTORIES[choice.directory % DIRECTORIES.length] ?? '/srv';
      const path = `${directory}/${NAMES[choice.name % NAMES.length]}`;
      if (before.has(path) || !free(path)) continue;
      fs.mkdir(directory, { parents: true });
      fs.writeFile(path, choice.data);
      record(path, CHANGE_ADD);
    } else {
      const candidates = existing(choice.op === 'modify' ? ['file'] : ['file', 'directory']);
      const path = candidates[choice.target % Math.max(candidates.length, 1)];
      if (path === undefined) continue;
      if (choice.op === 'modify') {
        fs.writeFile(path, choice.data);
        record(path, CHANGE_MODIFY);
      } else {
        fs.remove(path, { recursive: true });
        record(path, CHANGE_DELETE);
        deleted.push(path);
      }
    }
  }
  return [...expected].map(([Path, Kind]) => ({ Path, Kind })).sort((a, b) => Buffer.compare(Buffer.from(a.Path), Buffer.from(b.Path)));
}

describe('changes committed, saved and loaded', () => {
  test(withSeed('changes() reports each change`s Kind; the stacked images load back with their ids, parents and trees'), async () => {
    await fc.assert(
      fc.asyncProperty(stepsArbitrary, async (steps) => {
        const { images } = imageStore();
        const clock = secondsClock();
        const stacked: Image[] = [];
        let image = images.find('busybox');
        for (const [index, choices] of steps.entries()) {
          const fs = new LayeredFilesystem(image.layers, { clock });
          const expected = makeChanges(fs, choices);
          expect(fs.changes()).toEqual(expected);
          image = await images.create({ parent: image, layer: fs.commitLayer(), config: image.config, createdBy: `step ${index}`, tags: [`stack:${index}`] });
          stacked.push(image);
        }

        const archive = await saveImages(images, stacked.map((_, index) => `stack:${index}`));
        const fresh = imageStore().images;
        await loadImages(fresh, archive, { quiet: true, report: () => undefined });
        for (const [index, original] of stacked.entries()) {
          const loaded = fresh.find(`stack:${index}`);
          expect(loaded.id).toBe(original.id);
          expect(loaded.parent).toBe(index === 0 ? '' : stacked[index - 1]?.id);
          const exported = await new LayeredFilesystem(loaded.layers).exportTar();
          expect(exported.equals(await new LayeredFilesystem(original.layers).exportTar())).toBe(true);
          expect(tree(new LayeredFilesystem(loaded.layers))).toEqual(tree(new LayeredFilesystem(original.layers)));
        }
      }),
      { seed, numRuns: 100 },
    );
  }, 30_000);
});
