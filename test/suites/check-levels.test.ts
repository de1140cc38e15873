/**
 * The levels of DESIGN.md ("Two levels") hold for every check: a docker-level check names the dockerd
 * build its behaviour was seen on, and a spec-level check names a passage that exists in
 * ../shared/spec/ (a section heading, or a numbered rule of a section: '1 §9.4' is rule 4 of §9). The
 * checks' metadata comes from `shipshape list --json`, as a user sees it.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import type { CheckDescriptor } from '../../harness/check.ts';
import { parseSpecReference, readSpec, REPO_ROOT, specPassages, type SpecPassages } from './spec-passages.ts';

const SEEN = /^dockerd \d+\.\d+\.\d+$/;

/** What is wrong with a check's level metadata, or nothing. */
export function levelProblem(check: Pick<CheckDescriptor, 'id' | 'level' | 'seen' | 'spec'>, spec: Map<string, SpecPassages>): string | undefined {
  if (check.level === 'docker') {
    return check.seen !== undefined && SEEN.test(check.seen) ? undefined : `${check.id}: docker-level without seen: 'dockerd X.Y.Z' (it was ${JSON.stringify(check.seen)})`;
  }
  const references = parseSpecReference(check.spec);
  if (!references) return `${check.id}: spec ${JSON.stringify(check.spec)} is not like '1 §4.4' or '1 §2.3, §8'`;
  const missing = references.filter(({ document, section }) => !spec.get(document)?.has(section));
  return missing.length === 0 ? undefined : `${check.id}: spec ${JSON.stringify(check.spec)} names ${missing.map(({ document, section }) => `${document} §${section}`).join(', ')}, which spec/${missing[0]!.document}-… does not have`;
}

describe('the spec passages a check may name', async () => {
  const spec = await readSpec();

  test('are read from the three documents: headings and numbered rules, nothing else', () => {
    expect([...spec.keys()].sort()).toEqual(['1', '2', '3']);
    expect([...spec.get('1')!.keys()]).toContain('4.4');
    expect([...spec.get('1')!.keys()]).toContain('9.4');
    expect([...spec.get('2')!.keys()]).toContain('6.1');
    expect([...spec.get('3')!.keys()]).toContain('5.4');
    expect([...spec.get('1')!.keys()]).not.toContain('4.9');
    expect([...spec.get('2')!.keys()]).not.toContain('7');
    expect([...spec.get('3')!.keys()]).not.toContain('5.5');
    expect([...specPassages('## 2. Things\n\n### 2.1 One\n\n1. a rule\n   2. indented, not a rule\n\n## 3. Other\n2. rule two\n').keys()].sort()).toEqual(['2', '2.1', '2.1.1', '3', '3.2']);
  });

  test('a reference names a document and sections, in the forms the checks use', () => {
    expect(parseSpecReference('1 §4.4')).toEqual([{ document: '1', section: '4.4' }]);
    expect(parseSpecReference('1 §2.3, §8')).toEqual([{ document: '1', section: '2.3' }, { document: '1', section: '8' }]);
    expect(parseSpecReference('1 §7, 2 §4.2')).toEqual([{ document: '1', section: '7' }, { document: '2', section: '4.2' }]);
    expect(parseSpecReference('§4.4')).toBeUndefined();
    expect(parseSpecReference('1 4.4')).toBeUndefined();
  });

  test('the lint refuses what it must', () => {
    expect(levelProblem({ id: 'a.b.c', level: 'docker', spec: '1 §4.1' }, spec)).toMatch(/docker-level without seen/);
    expect(levelProblem({ id: 'a.b.c', level: 'docker', seen: 'dockerd', spec: '1 §4.1' }, spec)).toMatch(/docker-level without seen/);
    expect(levelProblem({ id: 'a.b.c', level: 'docker', seen: 'dockerd 20.10.24', spec: '1 §4.9' }, spec)).toBeUndefined();
    expect(levelProblem({ id: 'a.b.c', level: 'spec', spec: '1 §4.9' }, spec)).toMatch(/names 1 §4\.9/);
    expect(levelProblem({ id: 'a.b.c', level: 'spec', spec: '1 §2.3, §12' }, spec)).toMatch(/names 1 §12/);
    expect(levelProblem({ id: 'a.b.c', level: 'spec', spec: 'spec 1' }, spec)).toMatch(/is not like/);
    expect(levelProblem({ id: 'a.b.c', level: 'spec', spec: '3 §5.4' }, spec)).toBeUndefined();
  });
});

describe('every check of the suite', { timeout: 120_000 }, async () => {
  const spec = await readSpec();
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(REPO_ROOT, 'bin/shipshape.js'), 'list', '--json'], { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 });
  const checks = JSON.parse(stdout) as CheckDescriptor[];

  test('has a level in `list --json`', () => {
    expect(checks.length).toBeGreaterThan(100);
    expect(checks.filter((check) => check.level !== 'spec' && check.level !== 'docker').map((check) => check.id)).toEqual([]);
  });

  test('docker-level: names the dockerd build it was seen on; spec-level: names a passage the spec has', () => {
    expect(checks.map((check) => levelProblem(check, spec)).filter((problem) => problem !== undefined)).toEqual([]);
  });
});
