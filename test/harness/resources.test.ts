/**
 * The image tracking of a check: names put on an image it does not own come off, images it made go
 * by id, and everything a build labelled goes, children before parents, whatever order the list gave.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { removeImages, ResourceTracker } from '../../harness/resources.ts';
import { startFakeImageDaemon, type FakeImage, type FakeImageDaemon } from './fake-image-daemon.ts';

const image = (Id: string, parts: Partial<FakeImage> = {}): FakeImage => ({ Id, ParentId: '', RepoTags: [], Labels: null, ...parts });

let daemon: FakeImageDaemon | undefined;
afterEach(async () => {
  await daemon?.close();
  daemon = undefined;
});

describe('ResourceTracker images', () => {
  test('tag() takes the name off and leaves the image; image() removes the image by id', async () => {
    daemon = await startFakeImageDaemon([image('sha256:fixture', { RepoTags: ['busybox:latest', 'extra:latest'] }), image('sha256:own', { RepoTags: ['own:latest'] })]);
    const make = new ResourceTracker(daemon.engine, 'run');
    make.tag('extra:latest');
    make.image('sha256:own');
    expect(await make.cleanup()).toEqual([]);
    expect(daemon.images.map(({ Id, RepoTags }) => ({ Id, RepoTags }))).toEqual([{ Id: 'sha256:fixture', RepoTags: ['busybox:latest'] }]);
  });

  test('an image already gone is not a leftover; one that will not go is', async () => {
    daemon = await startFakeImageDaemon([image('sha256:parent'), image('sha256:child', { ParentId: 'sha256:parent' })]);
    const make = new ResourceTracker(daemon.engine, 'run');
    make.image('sha256:gone');
    make.image('sha256:parent');
    const leftovers = await make.cleanup();
    expect(leftovers).toHaveLength(1);
    expect(leftovers[0]).toMatch(/^image sha256:parent: DELETE \/images\/sha256%3Aparent\?force=1 → 409/);
  });

  test('labelled() removes the containers and every image of the label, intermediate ones included', async () => {
    const label = { 'shipshape.build': 'b1' };
    daemon = await startFakeImageDaemon(
      [image('sha256:a', { Labels: label }), image('sha256:b', { ParentId: 'sha256:a', Labels: label, RepoTags: ['tagged:latest'] }), image('sha256:c', { ParentId: 'sha256:b', Labels: label }), image('sha256:unrelated')],
      [{ Id: 'failed-step', Labels: label }],
    );
    const make = new ResourceTracker(daemon.engine, 'run');
    make.labelled('shipshape.build=b1');
    expect(await make.cleanup()).toEqual([]);
    expect(daemon.images.map((left) => left.Id)).toEqual(['sha256:unrelated']);
    expect(daemon.containers).toEqual([]);
  });
});

describe('removeImages', () => {
  test('removes leaves before their parents, so that a tagged parent is no conflict', async () => {
    const chain = [image('sha256:root', { RepoTags: ['root:1'] }), image('sha256:middle', { ParentId: 'sha256:root', RepoTags: ['middle:1'] }), image('sha256:leaf', { ParentId: 'sha256:middle' })];
    daemon = await startFakeImageDaemon(chain);
    const { failed } = await removeImages(daemon.engine, chain);
    expect(failed).toEqual([]);
    expect(daemon.deletions).toEqual(['DELETE /images/sha256:leaf', 'DELETE /images/sha256:middle', 'DELETE /images/sha256:root']);
    expect(daemon.images).toEqual([]);
  });
});
