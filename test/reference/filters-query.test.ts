import { describe, expect, test } from 'vitest';
import { checkFilterNames, parseFiltersQuery } from '../../reference/engine/http/filters-query.ts';
import { HttpError } from '../../reference/engine/http/http-error.ts';
import { InvalidParameterError } from '../../reference/engine/model/errors.ts';

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
  const known = { applied: ['label'], notYet: ['since'] };

  test('applied names pass', () => {
    expect(() => checkFilterNames({ label: ['x'] }, known)).not.toThrow();
  });

  test('a name the endpoint does not know is a 400 "Invalid filter"', () => {
    expect(() => checkFilterNames({ colour: ['red'] }, known)).toThrow(new InvalidParameterError("Invalid filter 'colour'"));
  });

  test('a known name the reference does not apply yet is a 501', () => {
    let thrown: unknown;
    try {
      checkFilterNames({ since: ['x'] }, known);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HttpError);
    expect((thrown as HttpError).status).toBe(501);
  });
});
