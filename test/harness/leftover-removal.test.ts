/**
 * What a run removes from a live daemon when it ends, is interrupted, or `shipshape cleanup` runs:
 * its labelled containers, the images it labelled or named (children before parents), only its own
 * names off images that are someone else's, and nothing of anyone else.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { removeLeftovers } from '../../harness/run/leftover-removal.ts';
import { isRunName, RUN_LABEL } from '../../harness/resources.ts';
import { startFakeImageDaemon, type FakeImage, type FakeImageDaemon } from './fake-image-daemon.ts';

const RUN = '0a1b2c3d';
const OTHER_RUN = 'deadbeef';

const image = (Id: string, parts: Partial<FakeImage> = {}): FakeImage => ({ Id, ParentId: '', RepoTags: [], Labels: null, ...parts });

let daemon: FakeImageDaemon | undefined;
afterEach(async () => {
  await daemon?.close();
  daemon = undefined;
});

describe('isRunName', () => {
  test('names of one run, or of any run, and nothing else that starts with the prefix', () => {
    expect(isRunName(`shipshape-${RUN}-t-abc123:latest`, RUN)).toBe(true);
    expect(isRunName(`shipshape-${OTHER_RUN}-t-abc123:latest`, RUN)).toBe(false);
    expect(isRunName(`shipshape-${OTHER_RUN}-t-abc123:latest`)).toBe(true);
    expect(isRunName('shipshape-busybox:c617fa35c164')).toBe(false);
    expect(isRunName('shipshape-probe:one')).toBe(false);
    expect(isRunName('busybox:latest')).toBe(false);
  });
});

describe('removeLeftovers', () => {
  test("removes the run's labelled containers and images, children first, and leaves everything else", async () => {
    daemon = await startFakeImageDaemon(
      [
        image('sha256:parent', { Labels: { [RUN_LABEL]: RUN } }),
        image('sha256:child', { ParentId: 'sha256:parent', Labels: { [RUN_LABEL]: RUN }, RepoTags: [`shipshape-${RUN}-built-1:latest`] }),
        image('sha256:other-run', { Labels: { [RUN_LABEL]: OTHER_RUN } }),
        image('sha256:someone', { RepoTags: ['someone:latest'] }),
      ],
      [
        { Id: 'c-ours', Labels: { [RUN_LABEL]: RUN } },
        { Id: 'c-theirs', Labels: {} },
      ],
    );
    const removal = await removeLeftovers(daemon.engine, RUN);
    expect(removal.failed).toEqual([]);
    expect(daemon.deletions[0]).toBe('DELETE /containers/c-ours');
    expect(daemon.deletions.indexOf('DELETE /images/sha256:child')).toBeGreaterThan(0);
    expect(daemon.images.map((left) => left.Id).sort()).toEqual(['sha256:other-run', 'sha256:someone']);
    expect(daemon.containers.map((left) => left.Id)).toEqual(['c-theirs']);
  });

  test("takes only the run's names off an image that has names of others: the fixture image stays", async () => {
    const fixture = image('sha256:fixture', { RepoTags: ['busybox:latest', `shipshape-${RUN}-t-1:latest`, `shipshape-${RUN}-t-2:latest`] });
    daemon = await startFakeImageDaemon([fixture]);
    await removeLeftovers(daemon.engine, RUN);
    expect(daemon.images).toEqual([{ ...fixture, RepoTags: ['busybox:latest'] }]);
    expect(daemon.deletions).toEqual([`DELETE /images/shipshape-${RUN}-t-1:latest`, `DELETE /images/shipshape-${RUN}-t-2:latest`]);
  });

  test("removes an image named only by the run (import, load), and without a run id every run's", async () => {
    daemon = await startFakeImageDaemon([
      image('sha256:imported', { RepoTags: [`shipshape-${RUN}-import-1:latest`] }),
      image('sha256:loaded', { RepoTags: [`shipshape-${OTHER_RUN}-saved-1:latest`] }),
      image('sha256:probe', { RepoTags: ['shipshape-probe:one'] }),
    ]);
    await removeLeftovers(daemon.engine, RUN);
    expect(daemon.images.map((left) => left.Id)).toEqual(['sha256:loaded', 'sha256:probe']);
    await removeLeftovers(daemon.engine);
    expect(daemon.images.map((left) => left.Id)).toEqual(['sha256:probe']);
  });
});
