/**
 * The recorded readings of every check (fixtures/review/<area>/<file>.json, one file per suite file):
 * each check read against ../shared/spec/ alone by a reader who saw nothing else (issue 22), with the
 * verdict before any fix, what the fix was, and the fingerprint of the code as last read.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkFingerprints } from './check-fingerprint.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const REVIEW_DIR = path.join(REPO_ROOT, 'fixtures/review');

/** spec-level: OK, OVER, WRONG, WEAK; docker-level: OK, LEVEL, CONTRA; NEW: a check the fixes added. */
export type Verdict = 'OK' | 'OVER' | 'WRONG' | 'WEAK' | 'LEVEL' | 'CONTRA' | 'NEW';

export interface Reading {
  id: string;
  /** the level the check had when it was read */
  level: 'spec' | 'docker';
  verdict: Verdict;
  reason: string;
  quote: string[];
  /** what the fix changed (or the argument for no change), for every verdict but OK */
  fix?: string;
  /** the fix changed the check's code or metadata beyond adding its quote */
  changed?: boolean;
  /** the reading of the check as fixed, by another reader who saw only the spec and the check */
  reread?: { verdict: Verdict; reason: string };
  /** readings after a later change to the check (issue 23 on: what changed, then the reader's verdict on the check as it is now) */
  later?: { change: string; verdict: Verdict; reason: string }[];
  /** the check's fingerprint when it was last read (check-fingerprint.ts) */
  fingerprint?: string;
}

export interface ReadingFile {
  /** fixtures/review/containers/lifecycle.json */
  file: string;
  /** suites/containers/lifecycle.check.ts */
  suiteFile: string;
  readings: Reading[];
}

export async function readReadings(): Promise<ReadingFile[]> {
  const areas = await fs.readdir(REVIEW_DIR, { withFileTypes: true });
  const files = await Promise.all(areas.filter((entry) => entry.isDirectory()).map(async (area) =>
    (await fs.readdir(path.join(REVIEW_DIR, area.name))).filter((name) => name.endsWith('.json')).map((name) => `${area.name}/${name}`)));
  return Promise.all(files.flat().sort().map(async (relative) => ({
    file: `fixtures/review/${relative}`,
    suiteFile: `suites/${relative.replace(/\.json$/, '.check.ts')}`,
    readings: JSON.parse(await fs.readFile(path.join(REVIEW_DIR, relative), 'utf8')) as Reading[],
  })));
}

/** The current fingerprint of each check a reading file covers, from its suite file. */
export async function currentFingerprints(file: ReadingFile): Promise<Map<string, string>> {
  const source = await fs.readFile(path.join(REPO_ROOT, file.suiteFile), 'utf8');
  return checkFingerprints(source, file.readings.map((reading) => reading.id));
}
