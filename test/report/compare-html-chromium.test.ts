/**
 * The compare page in headless Chromium: three targets (reference, dockerd, Podman) at all eight
 * versions, the support table with a column per target, conformance (spec checks) and Docker
 * compatibility (docker checks) apart per area and target, and the matrix with a cell per target and
 * version whose status is the report's; the page loads nothing but itself and its script does not
 * throw. Skipped where Chromium is not installed.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { API_VERSIONS } from '../../protocol/versions.ts';
import { compareReports } from '../../harness/report/compare-model.ts';
import { renderCompareHtml } from '../../harness/report/render-compare-html.ts';
import type { Report } from '../../harness/report/types.ts';
import { everywhere, makeCheck, makeReport } from './sample-report.ts';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];

/** Each check's status: at 1.25 only, or `everywhere`; every other version passed. */
type Outcome = 'passed' | 'failed' | 'expected-failure' | 'skipped' | 'failed everywhere';

/** The checks of the three reports and their levels: a spec-level and a docker-level check in each area. */
const LEVELS = {
  'volumes.create.schema': 'spec',
  'volumes.create.warning-null': 'docker',
  'networks.remove.in-use': 'spec',
  'networks.remove.message': 'docker',
} as const;

function reportOf(url: string, statuses: Record<keyof typeof LEVELS, Outcome>): Report {
  const checks = Object.entries(statuses).map(([id, status]) => {
    const level = LEVELS[id as keyof typeof LEVELS];
    const results = status === 'passed' ? everywhere({ status })
      : status === 'failed everywhere' ? everywhere({ status: 'failed', message: 'answers 500' })
      : { ...everywhere({ status: 'passed' }), '1.25': { status, message: 'answers 500', reason: 'answers 500' } };
    return makeCheck(id, results, { level, ...(level === 'docker' ? { seen: 'dockerd 20.10.24' } : {}) });
  });
  const report = makeReport(checks);
  return { ...report, target: { ...report.target, url } };
}

const reports = [
  reportOf('reference', { 'volumes.create.schema': 'passed', 'volumes.create.warning-null': 'passed', 'networks.remove.in-use': 'passed', 'networks.remove.message': 'passed' }),
  reportOf('unix:///tmp/d/docker.sock', { 'volumes.create.schema': 'passed', 'volumes.create.warning-null': 'passed', 'networks.remove.in-use': 'expected-failure', 'networks.remove.message': 'passed' }),
  reportOf('unix:///run/podman/podman.sock', { 'volumes.create.schema': 'failed', 'volumes.create.warning-null': 'failed everywhere', 'networks.remove.in-use': 'passed', 'networks.remove.message': 'skipped' }),
];

interface RenderedPage {
  targets: string[];
  versionColumns: Array<{ target: string; version: string }>;
  supportColumns: number[];
  /** the conformance / Docker compatibility table: its level headings, and per area a cell per target and level */
  levelHeadings: Array<{ target: string; level: string; text: string }>;
  levelRows: Array<{ area: string; cells: Array<{ target: string; level: string; support: string; text: string }> }>;
  rows: Array<{ id: string; cells: Array<{ target: string; version: string; status: string; text: string }> }>;
  outside: string[];
  errors: string[];
}

describe.skipIf(!existsSync(CHROMIUM))('the compare page in headless Chromium', { timeout: 60_000 }, () => {
  let dir: string;
  let page: RenderedPage;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'shipshape-compare-'));
    const file = join(dir, 'compare.html');
    await writeFile(file, renderCompareHtml(compareReports(reports)));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const tab = await browser.newPage();
      const outside: string[] = [];
      const errors: string[] = [];
      tab.on('pageerror', (error) => errors.push(error.message));
      await tab.route('**/*', (route) => {
        if (route.request().url() === pathToFileURL(file).href) return route.continue();
        outside.push(route.request().url());
        return route.abort();
      });
      await tab.goto(pathToFileURL(file).href);
      const rendered = await tab.evaluate(() => ({
        targets: Array.from(document.querySelectorAll<HTMLElement>('#matrix thead tr:first-child th.target'), (th) => th.innerText.replace(/\s+/g, ' ').trim()),
        versionColumns: Array.from(document.querySelectorAll<HTMLElement>('#matrix thead th[data-version]'), (th) => ({ target: th.dataset.target ?? '', version: th.dataset.version ?? '' })),
        supportColumns: Array.from(document.querySelectorAll('#support tbody tr'), (row) => row.querySelectorAll('td').length),
        levelHeadings: Array.from(document.querySelectorAll<HTMLElement>('#support-levels thead th[data-check-level]'), (th) => ({ target: th.dataset.target ?? '', level: th.dataset.checkLevel ?? '', text: th.innerText.trim() })),
        levelRows: Array.from(document.querySelectorAll<HTMLElement>('#support-levels tbody tr'), (row) => ({
          area: row.dataset.area ?? '',
          cells: Array.from(row.querySelectorAll<HTMLElement>('td'), (cell) => ({ target: cell.dataset.target ?? '', level: cell.dataset.checkLevel ?? '', support: cell.dataset.level ?? '', text: cell.innerText.replace(/\s+/g, ' ').trim() })),
        })),
        rows: Array.from(document.querySelectorAll<HTMLElement>('#matrix tr[data-check]'), (row) => ({
          id: row.dataset.check ?? '',
          cells: Array.from(row.querySelectorAll<HTMLElement>('td[data-version]'), (cell) => ({ target: cell.dataset.target ?? '', version: cell.dataset.version ?? '', status: cell.dataset.status ?? '', text: cell.innerText.trim() })),
        })),
      }));
      page = { ...rendered, outside, errors };
    } finally {
      await browser.close();
    }
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  test('shows the three targets, each at all eight versions', () => {
    expect(page.targets).toEqual(['T1 reference (docker 20.10.24)', 'T2 unix:///tmp/d/docker.sock (docker 20.10.24)', 'T3 unix:///run/podman/podman.sock (docker 20.10.24)']);
    expect(page.versionColumns).toEqual(['0', '1', '2'].flatMap((target) => API_VERSIONS.map((version) => ({ target, version }))));
  });

  test('a support cell per area and target, and a matrix cell per target and version with the report\'s status', () => {
    expect(page.supportColumns).toEqual([3, 3]);
    for (const row of page.rows) {
      expect(row.cells).toHaveLength(3 * API_VERSIONS.length);
      for (const cell of row.cells) {
        const result = reports[Number(cell.target)]?.checks.find((check) => check.id === row.id)?.results[cell.version];
        expect(`${row.id} ${cell.target} ${cell.version} ${cell.status}`).toBe(`${row.id} ${cell.target} ${cell.version} ${result?.status}`);
        expect(cell.text, 'a symbol, not colour alone').not.toBe('');
      }
    }
    expect(page.rows.map((row) => row.id).sort()).toEqual(Object.keys(LEVELS).sort());
  });

  test('shows conformance and Docker compatibility separately, per area and target', () => {
    expect(page.levelHeadings).toEqual(['0', '1', '2'].flatMap((target) => [
      { target, level: 'spec', text: 'conformance' },
      { target, level: 'docker', text: 'Docker compatibility' },
    ]));
    const shown = Object.fromEntries(page.levelRows.map(({ area, cells }) => [area, cells.map(({ target, level, support }) => `T${Number(target) + 1} ${level} ${support}`)]));
    expect(shown).toEqual({
      networks: ['T1 spec full', 'T1 docker full', 'T2 spec partial', 'T2 docker full', 'T3 spec full', 'T3 docker full'],
      volumes: ['T1 spec full', 'T1 docker full', 'T2 spec full', 'T2 docker full', 'T3 spec partial', 'T3 docker none'],
    });
    // partial names the check that did not pass, and where; the other level's cell does not
    const podmanVolumes = page.levelRows.find(({ area }) => area === 'volumes')?.cells.filter(({ target }) => target === '2');
    expect(podmanVolumes?.map(({ text }) => text)).toEqual(['partial volumes.create.schema (1.25)', 'none']);
  });

  test('loads nothing but itself, and its script does not throw', () => {
    expect(page.outside).toEqual([]);
    expect(page.errors).toEqual([]);
  });
});
