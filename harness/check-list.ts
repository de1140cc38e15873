/**
 * fixtures/checks.json: the checks this release ships, frozen and reviewable. Every check's metadata as
 * declared, and the ids no longer in the suite, listed as retired so that an id never comes back with
 * another meaning. `list`, `changes` and `coverage` read it instead of collecting the suite (which
 * starts vitest); test/check-list/ keeps it equal to the suite.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CheckDescriptor, CheckLevel } from './check.ts';
import { REPO_ROOT } from './repo-root.ts';

export const CHECK_LIST_FILE = path.join(REPO_ROOT, 'fixtures/checks.json');

/** An id the suite no longer has: what it meant, and why it went. */
export interface RetiredCheck {
  id: string;
  level: CheckLevel;
  title: string;
  retired: string;
}

export interface CheckList {
  checks: CheckDescriptor[];
  retired: RetiredCheck[];
}

export async function readCheckList(file = CHECK_LIST_FILE): Promise<CheckList> {
  return JSON.parse(await fs.readFile(file, 'utf8')) as CheckList;
}

/** A check's fields in the file, in this order (any other after them): how a suite file builds its metadata changes no line. */
const FIELD_ORDER = ['id', 'level', 'area', 'since', 'until', 'spec', 'title', 'quote', 'seen', 'tags', 'requires', 'covers', 'timeoutMs'];

function inFieldOrder(check: CheckDescriptor): CheckDescriptor {
  const keys = Object.keys(check).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return Object.fromEntries(keys.map((key) => [key, check[key as keyof CheckDescriptor]])) as unknown as CheckDescriptor;
}

function rank(key: string): number {
  const at = FIELD_ORDER.indexOf(key);
  return at === -1 ? FIELD_ORDER.length : at;
}

/** The file's text: checks and retired ids sorted by id, so that a change shows as a small diff. */
export function renderCheckList(list: CheckList): string {
  const byId = (a: { id: string }, b: { id: string }): number => a.id.localeCompare(b.id);
  return `${JSON.stringify({ checks: [...list.checks].sort(byId).map(inFieldOrder), retired: [...list.retired].sort(byId) }, null, 2)}\n`;
}
