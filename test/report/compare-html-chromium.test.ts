/**
 * The compare page in headless Chromium: three targets (reference, dockerd, Podman) at all eight
 * versions, the support table with a column per target, and the matrix with a cell per target and
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
import { API_VERSIONS } from '../../harness/versions.ts';
import { compareReports } from '../../harness/report/compare-model.ts';
import { renderCompareHtml } from '../../harness/report/render-compare-html.ts';
import type { Report } from '../../harness/report/types.ts';
import { everywhere, makeCheck, makeReport } from './sample-report.ts';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];

function reportOf(url: string, statuses: Record<string, 'passed' | 'failed' | 'expected-failure' | 'skipped'>): Report {
  const checks = Object.entries(statuses).map(([id, status]) =>
    makeCheck(id, status === 'passed' ? everywhere({ status }) : { ...everywhere({ status: 'passed' }), '1.25': { status, message: 'answers 500', reason: 'answers 500' } }),
  );
  const report = makeReport(checks);
  return { ...report, target: { ...report.target, url } };
}

const reports = [
  reportOf('reference', { 'volumes.create.schema': 'passed', 'networks.remove.in-use': 'passed' }),
  reportOf('unix:///tmp/d/docker.sock', { 'volumes.create.schema': 'passed', 'networks.remove.in-use': 'expected-failure' }),
  reportOf('unix:///run/podman/podman.sock', { 'volumes.create.schema': 'failed', 'networks.remove.in-use': 'passed' }),
];

interface RenderedPage {
  targets: string[];
  versionColumns: Array<{ target: string; version: string }>;
  supportColumns: number[];
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
    expect(page.rows.map((row) => row.id).sort()).toEqual(['networks.remove.in-use', 'volumes.create.schema']);
  });

  test('loads nothing but itself, and its script does not throw', () => {
    expect(page.outside).toEqual([]);
    expect(page.errors).toEqual([]);
  });
});
