import { expect, test } from 'vitest';
import { areasOf, globToRegExp, levelPattern, parseLevel } from '../../harness/run/check-filter.ts';
import { UsageError } from '../../harness/cli/usage-error.ts';

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

test('--level: spec, docker or all; anything else is a usage error naming the flag', () => {
  expect(['spec', 'docker', 'all'].map(parseLevel)).toEqual(['spec', 'docker', 'all']);
  expect(() => parseLevel('Docker')).toThrow(UsageError);
  expect(() => parseLevel('')).toThrow(/^--level: expected spec, docker or all, got ""$/);
});

test('levelPattern: the exact ids of the level among those --only selects; all leaves --only as it is', () => {
  const checks = [
    { id: 'system.ping.body', level: 'spec' },
    { id: 'system.ping.header', level: 'docker' },
    { id: 'system.ping.header-x', level: 'spec' },
    { id: 'images.list.reference', level: 'docker' },
  ] as const;
  const only = globToRegExp('system.**');
  expect(levelPattern(checks, 'all', only)).toBe(only);
  expect(levelPattern(checks, 'all', undefined)).toBeUndefined();
  const docker = levelPattern(checks, 'docker', only);
  expect(checks.map((check) => check.id).filter((id) => docker?.test(id))).toEqual(['system.ping.header']);
  const spec = levelPattern(checks, 'spec', undefined);
  expect(checks.map((check) => check.id).filter((id) => spec?.test(id))).toEqual(['system.ping.body', 'system.ping.header-x']);
  // `.` is literal: no other id matches a selected one's pattern
  expect(spec?.test('system.pingXbody')).toBe(false);
  const none = levelPattern(checks, 'docker', globToRegExp('exec.**'));
  expect(['', 'exec.start.detach', ...checks.map((check) => check.id)].some((id) => none?.test(id))).toBe(false);
});
