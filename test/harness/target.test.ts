import { describe, expect, test } from 'vitest';
import { parseTarget, TargetError } from '../../harness/target.ts';

describe('parseTarget', () => {
  test('reference is the default when nothing is given', () => {
    expect(parseTarget(undefined, {}, {})).toEqual({ kind: 'reference' });
  });

  test('unix sockets keep their path', () => {
    expect(parseTarget('unix:///tmp/d/docker.sock', {}, {})).toMatchObject({
      kind: 'live',
      url: 'unix:///tmp/d/docker.sock',
      connection: { socketPath: '/tmp/d/docker.sock' },
    });
  });

  test('tcp is plain HTTP unless TLS is asked for', () => {
    expect(parseTarget('tcp://127.0.0.1:2375', {}, {})).toMatchObject({ connection: { origin: 'http://127.0.0.1:2375' } });
    expect(parseTarget('https://127.0.0.1:2376', { skipVerify: true }, {})).toMatchObject({
      connection: { origin: 'https://127.0.0.1:2376', tls: { skipVerify: true } },
    });
  });

  test('DOCKER_HOST and DOCKER_TLS_VERIFY are the fallback', () => {
    const env = { DOCKER_HOST: 'tcp://10.0.0.1:2376', DOCKER_TLS_VERIFY: '1' };
    expect(parseTarget(undefined, {}, env)).toMatchObject({ kind: 'live', connection: { origin: 'https://10.0.0.1:2376' } });
  });

  test('credentials never reach the report url', () => {
    const target = parseTarget('https://user:secret@example.test:2376', { skipVerify: true }, {});
    expect(target.kind === 'live' && target.url).toBe('https://example.test:2376');
  });

  test('container:IMAGE names the image whose daemon the run starts', () => {
    expect(parseTarget('container:shipshape-dind:20.10', {}, {})).toEqual({ kind: 'container', url: 'container:shipshape-dind:20.10', image: 'shipshape-dind:20.10' });
    expect(parseTarget('container:example.test/dind@sha256:abc', {}, {})).toMatchObject({ kind: 'container', image: 'example.test/dind@sha256:abc' });
    expect(() => parseTarget('container:', {}, {})).toThrow(/names no image/);
    expect(() => parseTarget('container: x', {}, {})).toThrow(TargetError);
  });

  test('bad targets are one clear error', () => {
    expect(() => parseTarget('ftp://x', {}, {})).toThrow(TargetError);
    expect(() => parseTarget('tcp://127.0.0.1', {}, {})).toThrow(/needs a port/);
    expect(() => parseTarget('not a url', {}, {})).toThrow(/is not reference/);
    expect(() => parseTarget('https://h:1', { cert: '/nonexistent/cert.pem', key: '/nonexistent/key.pem' }, {})).toThrow(/cannot read client certificate/);
  });
});
