import { describe, expect, test } from 'vitest';
import { checkVersion, splitVersionPrefix } from '../../reference/engine/http/version-prefix.ts';

describe('splitVersionPrefix', () => {
  test('a /vX.Y prefix gives the version and the rest of the path', () => {
    expect(splitVersionPrefix('/v1.18/containers/json')).toEqual({ version: '1.18', path: '/containers/json' });
    expect(splitVersionPrefix('/v1.26/info')).toEqual({ version: '1.26', path: '/info' });
  });

  test('no prefix is the current version', () => {
    expect(splitVersionPrefix('/info')).toEqual({ version: '1.25', path: '/info' });
  });

  test('leading zeros are read as numbers', () => {
    expect(splitVersionPrefix('/v01.019/info')).toEqual({ version: '1.19', path: '/info' });
  });

  test.each(['/vabc/info', '/v1/info', '/v1.2.3/info', '/v1.25'])('%j is no prefix: the path stays whole', (path) => {
    expect(splitVersionPrefix(path)).toEqual({ version: '1.25', path });
  });
});

describe('checkVersion', () => {
  test.each(['1.18', '1.19', '1.20', '1.21', '1.22', '1.23', '1.24', '1.25'])('%s is served', (version) => {
    expect(checkVersion(version)).toEqual({ served: version });
  });

  test('newer than 1.25 is too new, in dockerd words', () => {
    expect(checkVersion('1.26')).toEqual({ refusal: 'client version 1.26 is too new. Maximum supported API version is 1.25' });
    expect(checkVersion('2.0')).toHaveProperty('refusal', expect.stringContaining('too new'));
  });

  test('older than 1.18 is too old, in dockerd words', () => {
    expect(checkVersion('1.17')).toEqual({
      refusal: 'client version 1.17 is too old. Minimum supported API version is 1.18, please upgrade your client to a newer version',
    });
    expect(checkVersion('1.9')).toHaveProperty('refusal', expect.stringContaining('too old'));
  });
});

describe('a version too large for a number', () => {
  test('keeps its digits and is refused as too new', () => {
    const { version } = splitVersionPrefix('/v999999999999999999999.1/_ping');
    expect(version).toBe('999999999999999999999.1');
    expect(checkVersion(version)).toEqual({ refusal: 'client version 999999999999999999999.1 is too new. Maximum supported API version is 1.25' });
  });
});
