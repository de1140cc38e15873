import { describe, expect, it } from 'vitest';
import { leftoverLines, objectsAddedSince, type DaemonSnapshot } from '../../harness/run/daemon-snapshot.ts';

const snapshot = (parts: Partial<Record<keyof DaemonSnapshot, string[]>>): DaemonSnapshot => ({
  containers: new Set(parts.containers),
  images: new Set(parts.images),
  volumes: new Set(parts.volumes),
  networks: new Set(parts.networks),
  plugins: new Set(parts.plugins),
  services: new Set(parts.services),
});

describe('objectsAddedSince', () => {
  it('names every kind of object that appeared, and nothing that was there or went away', () => {
    const before = snapshot({ containers: ['c-old'], images: ['sha256:aaaaaaaaaaaaaaaaaaaa'], volumes: ['v-old'], networks: ['n-gone'], plugins: ['p-old'], services: ['s-old'] });
    const after = snapshot({
      containers: ['c-old', 'c-new'],
      images: ['sha256:aaaaaaaaaaaaaaaaaaaa', 'sha256:bbbbbbbbbbbbbbbbbbbb'],
      volumes: ['v-old', 'v-new'],
      networks: ['n-new'],
      plugins: ['p-old', 'p-new'],
      services: ['s-new'],
    });
    expect(objectsAddedSince(before, after)).toEqual([
      'container c-new',
      'image bbbbbbbbbbbb',
      'volume v-new',
      'network n-new',
      'plugin p-new',
      'service s-new',
    ]);
  });

  it('is empty when the daemon holds what it held before', () => {
    const same = snapshot({ containers: ['c'], volumes: ['v'] });
    expect(objectsAddedSince(same, snapshot({ containers: ['c'], volumes: ['v'] }))).toEqual([]);
  });
});

describe('leftoverLines', () => {
  it('says in one line what the end of the run removed, and a line for each object still there', () => {
    expect(leftoverLines(['container c1', 'volume v1', 'network n1'], ['network n1'])).toEqual([
      'the checks left 2 objects, removed when the run ended: container c1, volume v1',
      'network n1 is still on the target',
    ]);
  });

  it('names six removed objects and counts the rest; says nothing when the checks left nothing', () => {
    const many = Array.from({ length: 9 }, (_, index) => `container c${index}`);
    expect(leftoverLines(many, [])).toEqual(['the checks left 9 objects, removed when the run ended: container c0, container c1, container c2, container c3, container c4, container c5 and 3 more']);
    expect(leftoverLines([], [])).toEqual([]);
  });
});
