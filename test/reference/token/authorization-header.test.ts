/** The Authorization header as the token service and the accounts API read it: one scheme, one token, nothing else. */
import { expect, test } from 'vitest';
import { parseAuthorization } from '../../../reference/token/http/authorization-header.ts';

const basic = (text: string) => Buffer.from(text).toString('base64');

test('Basic: base64 of user:password, any case of the scheme, spaces around', () => {
  expect(parseAuthorization(`Basic ${basic('alice:pw:with:colons')}`)).toEqual({ scheme: 'basic', username: 'alice', password: 'pw:with:colons' });
  expect(parseAuthorization(` basic  ${basic('a:b')} `)).toEqual({ scheme: 'basic', username: 'a', password: 'b' });
  expect(parseAuthorization(undefined)).toBeUndefined();
});

test('Basic with trailing words, characters outside base64, a broken quantum or no colon is malformed, never read from a prefix', () => {
  expect(parseAuthorization(`Basic ${basic('alice:pw')} garbage`)).toBe('malformed');
  expect(parseAuthorization(`Basic ${basic('alice:pw')}!!`)).toBe('malformed');
  expect(parseAuthorization(`Basic ${basic('alice:pw').slice(0, -1)}`)).toBe('malformed');
  expect(parseAuthorization(`Basic ${basic('alice')}`)).toBe('malformed');
  expect(parseAuthorization('Basic')).toBe('malformed');
});

test('Bearer: one token; trailing words or none are malformed; other schemes too', () => {
  expect(parseAuthorization('Bearer abc.def.ghi')).toEqual({ scheme: 'bearer', token: 'abc.def.ghi' });
  expect(parseAuthorization('Bearer abc.def.ghi extra')).toBe('malformed');
  expect(parseAuthorization('Bearer ')).toBe('malformed');
  expect(parseAuthorization('Digest abc')).toBe('malformed');
});
