/**
 * The readings ratchet (issue 22): every check has a recorded reading against the spec alone, and a
 * spec-level check changed (or added) after its reading fails here until it is read again and
 * stamped (`npm run review:stamp -- ID`). The checks come from `shipshape list --json`.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import type { CheckDescriptor } from '../../harness/check.ts';
import { checkFingerprints } from './check-fingerprint.ts';
import { currentFingerprints, readReadings, REPO_ROOT, type Reading } from './review-readings.ts';

const SPEC_VERDICTS = ['OK', 'OVER', 'WRONG', 'WEAK', 'NEW'];
const DOCKER_VERDICTS = ['OK', 'LEVEL', 'CONTRA', 'NEW'];

describe('a check fingerprint', () => {
  const source = [
    "import { check } from '../../harness/check.ts';",
    'const SHARED = 1;',
    "check('a.b.one', { title: 'one' }, async () => {});",
    "check('a.b.two', { title: 'two' }, async () => {});",
    "for (const name of ['x', 'y']) check(`a.b.${name}`, { title: name }, async () => {});",
  ].join('\n');
  const ids = ['a.b.one', 'a.b.two', 'a.b.x'];
  const before = checkFingerprints(source, ids);

  test('changes with the check\'s own declaration, and only that check\'s', () => {
    const after = checkFingerprints(source.replace("title: 'one'", "title: 'one!'"), ids);
    expect(after.get('a.b.one')).not.toBe(before.get('a.b.one'));
    expect(after.get('a.b.two')).toBe(before.get('a.b.two'));
    expect(after.get('a.b.x')).toBe(before.get('a.b.x'));
  });

  test('changes for every check of the file when the code they share changes', () => {
    const after = checkFingerprints(source.replace('SHARED = 1', 'SHARED = 2'), ids);
    for (const id of ids) expect(after.get(id), id).not.toBe(before.get(id));
  });

  test('does not change with another file\'s layout of the same statements', () => {
    expect(checkFingerprints(`${source}\n\n`, ids)).toEqual(before);
  });
});

describe('the recorded readings', { timeout: 120_000 }, async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(REPO_ROOT, 'bin/shipshape.js'), 'list', '--json'], { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 });
  const listed = JSON.parse(stdout) as CheckDescriptor[];
  const checks = new Map(listed.map((check) => [check.id, check]));

  test('name each check of the suite once: no two checks share an id', () => {
    expect(listed.filter((check, index) => listed.findIndex((other) => other.id === check.id) !== index).map((check) => check.id)).toEqual([]);
  });
  const files = await readReadings();
  const readings = new Map<string, Reading & { file: string; current?: string }>();
  const twice: string[] = [];
  for (const file of files) {
    const fingerprints = await currentFingerprints(file);
    for (const reading of file.readings) {
      if (readings.has(reading.id)) twice.push(reading.id);
      readings.set(reading.id, { ...reading, file: file.file, current: fingerprints.get(reading.id) });
    }
  }

  test('cover every check of the suite once, and no check that is gone', () => {
    expect(twice, 'read twice').toEqual([]);
    expect([...checks.keys()].filter((id) => !readings.has(id)), 'checks with no reading').toEqual([]);
    expect([...readings.keys()].filter((id) => !checks.has(id)), 'readings of no check').toEqual([]);
  });

  test('give a verdict of the check\'s level; a finding has its reason and its fix (or the argument for none), a new check its reason', () => {
    const bad = [...readings.values()].flatMap((reading) => {
      const allowed = reading.level === 'spec' ? SPEC_VERDICTS : DOCKER_VERDICTS;
      if (!allowed.includes(reading.verdict)) return [`${reading.id}: ${reading.verdict} is not a ${reading.level}-level verdict`];
      if (reading.verdict === 'OK') return [];
      if (reading.reason.trim() === '') return [`${reading.id}: ${reading.verdict} without reason`];
      return reading.verdict !== 'NEW' && !reading.fix?.trim() ? [`${reading.id}: ${reading.verdict} without fix`] : [];
    });
    expect(bad).toEqual([]);
  });

  test('a spec-level check changed by its fix was read again by another reader', () => {
    const unread = [...readings.values()].filter((reading) => checks.get(reading.id)?.level === 'spec' && (reading.changed || reading.verdict === 'NEW') && !reading.reread);
    expect(unread.map((reading) => `${reading.id} (${reading.file})`)).toEqual([]);
  });

  test('a spec-level check is as it was when last read (else: read it again, then npm run review:stamp -- ID)', () => {
    const changed = [...readings.values()].filter((reading) => checks.get(reading.id)?.level === 'spec' && reading.fingerprint !== reading.current);
    expect(changed.map((reading) => `${reading.id} (${reading.file}: read ${reading.fingerprint ?? 'never'}, now ${reading.current})`)).toEqual([]);
  });
});
