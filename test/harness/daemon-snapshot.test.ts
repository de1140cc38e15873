import { describe, expect, it } from 'vitest';
import { leftoversSince, type DaemonSnapshot } from '../../harness/run/daemon-snapshot.ts';

const snapshot = (parts: Partial<Record<keyof DaemonSnapshot, string[]>>): DaemonSnapshot => ({
  containers: new Set(parts.containers),
  images: new Set(parts.images),
  volumes: new Set(parts.volumes),
  networks: new Set(parts.networks),
  plugins: new Set(parts.plugins),
  services: new Set(parts.services),
});

describe('leftoversSince', () => {
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
    expect(leftoversSince(before, after)).toEqual([
      'container c-new was left on the target',
      'image bbbbbbbbbbbb was left on the target',
      'volume v-new was left on the target',
      'network n-new was left on the target',
      'plugin p-new was left on the target',
      'service s-new was left on the target',
    ]);
  });

  it('is empty when the daemon holds what it held before', () => {
    const same = snapshot({ containers: ['c'], volumes: ['v'] });
    expect(leftoversSince(same, snapshot({ containers: ['c'], volumes: ['v'] }))).toEqual([]);
  });
});
