import { describe, expect, test } from 'vitest';
import { parseBooleanQuery } from '../../reference/engine/http/boolean-query.ts';

describe('parseBooleanQuery', () => {
  test.each(['1', 'True', 'true', 'TRUE', 'yes', 'on', '2', ' true '])('%j is true', (value) => {
    expect(parseBooleanQuery(value, false)).toBe(true);
  });

  test.each(['0', 'False', 'false', 'no', 'none', 'NO', 'None', ''])('%j is false', (value) => {
    expect(parseBooleanQuery(value, true)).toBe(false);
  });

  test.each([null, undefined])('%j (absent) takes the default', (value) => {
    expect(parseBooleanQuery(value, true)).toBe(true);
    expect(parseBooleanQuery(value, false)).toBe(false);
  });
});
