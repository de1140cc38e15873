/** How a container's Binds and Config.Volumes read as mounts, with dockerd's refusals and defaults. */
import { describe, expect, test } from 'vitest';
import { EngineError, InvalidParameterError } from '../../../reference/engine/model/common/errors.ts';
import { mountSpecsOf, parseBind } from '../../../reference/engine/model/containers/mount-specs.ts';

describe('parseBind', () => {
  test('a named volume: mode z when none is given, no propagation, data copied unless nocopy', () => {
    expect(parseBind('data:/data')).toEqual({ type: 'volume', source: 'data', destination: '/data', mode: 'z', rw: true, propagation: '', copyData: true });
    expect(parseBind('data:/data/:ro,nocopy')).toEqual({ type: 'volume', source: 'data', destination: '/data', mode: 'ro,nocopy', rw: false, propagation: '', copyData: false });
  });

  test('a host path is a bind, rprivate unless the mode gives a propagation; a bare path an anonymous volume', () => {
    expect(parseBind('/host:/in:ro')).toMatchObject({ type: 'bind', source: '/host', mode: 'ro', rw: false, propagation: 'rprivate' });
    expect(parseBind('/host:/in:rshared')).toMatchObject({ type: 'bind', rw: true, propagation: 'rshared' });
    expect(parseBind('/only')).toMatchObject({ type: 'volume', source: '', destination: '/only', mode: 'z', rw: true });
  });

  test("dockerd's refusals: a relative destination, an unknown or repeated mode word, a mode without a source, too many parts", () => {
    const message = (raw: string) => {
      try {
        parseBind(raw);
        return undefined;
      } catch (error) {
        expect(error).toBeInstanceOf(EngineError);
        return (error as Error).message;
      }
    };
    expect(message('data:rel')).toBe(`invalid volume specification: 'data:rel': invalid mount config for type "volume": invalid mount path: 'rel' mount path must be absolute`);
    expect(message('/h:rel')).toMatch(/invalid mount config for type "bind"/);
    expect(message('data:/x:bogus')).toBe('invalid mode: bogus');
    expect(message('data:/x:ro,rw')).toBe('invalid mode: ro,rw');
    expect(message('/x:ro')).toBe(`invalid volume specification: '/x:ro'`);
    expect(message('a:/b:ro:x')).toBe(`invalid volume specification: 'a:/b:ro:x'`);
  });
});

describe('mountSpecsOf', () => {
  test('binds first, then the Config.Volumes paths no bind covers, as anonymous volumes with mode ""', () => {
    const specs = mountSpecsOf(['data:/data', '/h:/host'], { '/data/': {}, '/cache': {} });
    expect(specs.map(({ type, source, destination, mode }) => [type, source, destination, mode])).toEqual([
      ['volume', 'data', '/data', 'z'],
      ['bind', '/h', '/host', ''],
      ['volume', '', '/cache', ''],
    ]);
  });

  test('a destination two binds mount is refused as invalid', () => {
    expect(() => mountSpecsOf(['a1:/x', 'b1:/x/'], null)).toThrow(new InvalidParameterError('Duplicate mount point: /x'));
  });
});
