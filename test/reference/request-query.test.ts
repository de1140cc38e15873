import { describe, expect, test } from 'vitest';
import { InvalidParameterError } from '../../reference/engine/model/common/errors.ts';
import { parseRequestQuery } from '../../reference/engine/http/request-query.ts';

describe('parseRequestQuery', () => {
  test('decodes a well-formed query, escapes included', () => {
    const query = parseRequestQuery('v=1&path=%2Fetc%2Fpasswd&name=a+b');
    expect([query.get('v'), query.get('path'), query.get('name')]).toEqual(['1', '/etc/passwd', 'a b']);
  });

  test.each(['v=%zz', 'v=%', 'v=1&force=%4', 'a%g1=1'])('%j has a malformed escape: a bad parameter naming it', (text) => {
    expect(() => parseRequestQuery(text)).toThrow(InvalidParameterError);
    expect(() => parseRequestQuery(text)).toThrow(/^invalid URL escape "%/);
  });

  test('an empty query is no parameters', () => {
    expect([...parseRequestQuery('').keys()]).toEqual([]);
  });
});
