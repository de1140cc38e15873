import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { API_VERSIONS, appliesAt, atLeast, before, compareVersions, parseVersionList } from '../../protocol/versions.ts';

describe('version helpers', () => {
  test('compare numerically, not as strings', () => {
    expect(compareVersions('1.9', '1.18')).toBeLessThan(0);
    expect(atLeast('1.24', '1.24')).toBe(true);
    expect(before('1.23', '1.24')).toBe(true);
    expect(before('1.24', '1.24')).toBe(false);
  });

  test('appliesAt honours since and until inclusively', () => {
    expect(appliesAt('1.20', '1.20', '1.23')).toBe(true);
    expect(appliesAt('1.23', '1.20', '1.23')).toBe(true);
    expect(appliesAt('1.24', '1.20', '1.23')).toBe(false);
    expect(appliesAt('1.19', '1.20')).toBe(false);
  });

  test('parseVersionList takes ranges and lists', () => {
    expect(parseVersionList('1.18-1.25')).toEqual([...API_VERSIONS]);
    expect(parseVersionList('1.25,1.24')).toEqual(['1.24', '1.25']);
    expect(parseVersionList('1.22-1.23, 1.25')).toEqual(['1.22', '1.23', '1.25']);
    expect(() => parseVersionList('1.30')).toThrow(/names no version/);
    expect(() => parseVersionList('latest')).toThrow(/not a version/);
  });

  test('compareVersions is antisymmetric and agrees with numeric order (property)', () => {
    const seed = Number(process.env.SHIPSHAPE_SEED ?? 424242);
    const version = fc.tuple(fc.nat(30), fc.nat(99)).map(([major, minor]) => `${major}.${minor}`);
    fc.assert(
      fc.property(version, version, (a, b) => {
        const [am, an] = a.split('.').map(Number) as [number, number];
        const [bm, bn] = b.split('.').map(Number) as [number, number];
        const numeric = am !== bm ? am - bm : an - bn;
        return Math.sign(compareVersions(a, b)) === Math.sign(numeric) && Math.sign(compareVersions(b, a)) === -Math.sign(numeric);
      }),
      { seed },
    );
  });
});
