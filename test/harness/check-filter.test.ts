import { expect, test } from 'vitest';
import { areasOf, globToRegExp } from '../../harness/run/check-filter.ts';

test('--only globs: * stays in a segment, ** crosses segments, commas join', () => {
  const only = globToRegExp('system.*,containers.**');
  expect(only.test('system.ping')).toBe(true);
  expect(only.test('system.ping.ok')).toBe(false);
  expect(only.test('containers.start.already-started')).toBe(true);
  expect(only.test('images.list')).toBe(false);
  expect(globToRegExp('system.ping.ok').test('system.ping.okx')).toBe(false);
});

test('areasOf names the suite folders a run must load, or none when any area may match', () => {
  expect(areasOf('system.ping.*,containers.**, system.version.*')).toEqual(['system', 'containers']);
  expect(areasOf('system')).toEqual(['system']);
  expect(areasOf('*.ping.*')).toBeUndefined();
  expect(areasOf('sys*.**,containers.**')).toBeUndefined();
  expect(areasOf('**')).toBeUndefined();
  expect(areasOf(' , ')).toBeUndefined();
});
