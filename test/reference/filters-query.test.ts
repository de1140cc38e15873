import { describe, expect, test } from 'vitest';
import { checkFilterNames, parseFiltersQuery } from '../../reference/engine/http/filters-query.ts';
import { InvalidParameterError } from '../../reference/engine/model/common/errors.ts';

describe('parseFiltersQuery', () => {
  test('absent, empty or JSON null is no filter', () => {
    expect(parseFiltersQuery(null)).toEqual({});
    expect(parseFiltersQuery('')).toEqual({});
    expect(parseFiltersQuery('null')).toEqual({});
  });

  test('reads the list form and the map-to-boolean form alike; in the map, false counts too (dockerd)', () => {
    expect(parseFiltersQuery('{"label":["a=b","c"]}')).toEqual({ label: ['a=b', 'c'] });
    expect(parseFiltersQuery('{"label":{"a=b":true,"off":false}}')).toEqual({ label: ['a=b', 'off'] });
  });

  test.each(['{bad', '[1]', '"label"', '{"label":[1]}', '{"label":"x"}', '{"label":{"a":"yes"}}'])('refuses %j', (text) => {
    expect(() => parseFiltersQuery(text)).toThrow(InvalidParameterError);
  });
});

describe('checkFilterNames', () => {
  test('applied names pass', () => {
    expect(() => checkFilterNames({ label: ['x'] }, ['label'])).not.toThrow();
  });

  test('a name the endpoint does not apply is a 400 "Invalid filter" naming it', () => {
    expect(() => checkFilterNames({ label: ['x'], colour: ['red'] }, ['label'])).toThrow(new InvalidParameterError("Invalid filter 'colour'"));
  });
});
