import { expect, test } from 'vitest';
import { globToRegExp } from '../../harness/run/check-filter.ts';

test('--only globs: * stays in a segment, ** crosses segments, commas join', () => {
  const only = globToRegExp('system.*,containers.**');
  expect(only.test('system.ping')).toBe(true);
  expect(only.test('system.ping.ok')).toBe(false);
  expect(only.test('containers.start.already-started')).toBe(true);
  expect(only.test('images.list')).toBe(false);
  expect(globToRegExp('system.ping.ok').test('system.ping.okx')).toBe(false);
});
