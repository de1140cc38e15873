import { describe, expect, test } from 'vitest';
import { registryConfigCredentials, registryCredentials } from '../../reference/engine/http/registry-auth-header.ts';

/** padded, as Go's base64.URLEncoding wants it */
const base64Url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');

describe('registryCredentials', () => {
  test('a registrytoken wins from 1.22 and is ignored before', () => {
    const auth = { username: 'alice', password: 'secret', registrytoken: 'token' };
    expect(registryCredentials(auth, '1.22')).toEqual({ registryToken: 'token' });
    expect(registryCredentials(auth, '1.21')).toEqual({ username: 'alice', password: 'secret' });
  });

  test('an identitytoken counts from 1.25', () => {
    expect(registryCredentials({ identitytoken: 'id' }, '1.25')).toEqual({ identityToken: 'id' });
    expect(registryCredentials({ identitytoken: 'id', username: 'alice' }, '1.24')).toEqual({ username: 'alice' });
  });
});

describe('registryConfigCredentials (X-Registry-Config)', () => {
  const header = base64Url({
    'http://127.0.0.1:5000/v2/': { username: 'alice', password: 'secret' },
    'https://index.docker.io/v1/': { username: 'hub', password: 'hub-secret' },
  });

  test('finds the entry whose address names the host, scheme and path left out', () => {
    expect(registryConfigCredentials(header, '1.25')('127.0.0.1:5000')).toEqual({ username: 'alice', password: 'secret' });
  });

  test("Docker Hub's index address stands for its registry", () => {
    expect(registryConfigCredentials(header, '1.25')('registry-1.docker.io')).toEqual({ username: 'hub', password: 'hub-secret' });
  });

  test.each([
    ['another host', header, '127.0.0.1:5001'],
    ['no header', undefined, '127.0.0.1:5000'],
    ['a malformed header', 'not base64 json!', '127.0.0.1:5000'],
  ])('%s gives no credentials', (_what, given, host) => {
    expect(registryConfigCredentials(given, '1.25')(host)).toEqual({});
  });
});
