/**
 * Opens a report.html from disk in headless Chromium and checks that it shows what the report.json
 * next to it holds: a row per check, a cell per version with the right status, a working filter box
 * and level filter, and no request leaving the file. Run: node --import tsx test/browser/check-report-html.ts DIR/report.html
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import type { Report } from '../../harness/report/types.ts';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

interface RenderedRow {
  id: string;
  visible: boolean;
  cells: { version: string; status: string; text: string }[];
}

class Mismatch extends Error {}

function expectThat(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Mismatch(message);
}

async function readRows(page: Page): Promise<RenderedRow[]> {
  return page.$$eval('#matrix tr[data-check]', (rows) =>
    rows.map((row) => ({
      id: (row as HTMLElement).dataset.check ?? '',
      visible: (row as HTMLElement).checkVisibility(),
      cells: Array.from(row.querySelectorAll<HTMLElement>('td[data-version]'), (cell) => ({
        version: cell.dataset.version ?? '',
        status: cell.dataset.status ?? '',
        text: cell.textContent?.trim() ?? '',
      })),
    })),
  );
}

function assertMatrix(rows: RenderedRow[], report: Report): void {
  const rendered = new Map<string, RenderedRow>();
  for (const row of rows) {
    expectThat(!rendered.has(row.id), `check ${row.id} has more than one row`);
    rendered.set(row.id, row);
  }
  for (const check of report.checks) {
    const row = rendered.get(check.id);
    expectThat(row !== undefined, `no row for check ${check.id}`);
    expectThat(row.visible, `the row of ${check.id} is not visible before any filter`);
    const versions = row.cells.map((cell) => cell.version);
    expectThat(JSON.stringify(versions) === JSON.stringify(report.versions), `${check.id}: cells for ${versions.join(',')}, expected ${report.versions.join(',')}`);
    for (const cell of row.cells) {
      const expected = check.results[cell.version]?.status ?? 'none';
      expectThat(cell.status === expected, `${check.id} at ${cell.version}: the cell says ${cell.status}, report.json says ${expected}`);
      expectThat(cell.text.length > 0, `${check.id} at ${cell.version}: the cell has no text symbol (colour alone)`);
    }
  }
  expectThat(rows.length === report.checks.length, `${rows.length} rows for ${report.checks.length} checks`);
}

/** What the filter box searches, per check: the same fields the page's script reads from the embedded report. */
function searchableText(check: Report['checks'][number]): string {
  const results = Object.values(check.results).flatMap((result) => [result.status, result.message ?? '', result.reason ?? '']);
  return [check.id, check.area, check.title, check.spec, check.level ?? 'spec', check.seen ?? '', ...check.tags, ...results].join('\n').toLowerCase();
}

async function assertFilter(page: Page, report: Report): Promise<void> {
  const target = report.checks.at(-1);
  if (!target) return;
  const term = target.id;
  await page.fill('#filter', term);
  const rows = await readRows(page);
  for (const check of report.checks) {
    const row = rows.find((candidate) => candidate.id === check.id);
    const matches = searchableText(check).includes(term.toLowerCase());
    expectThat(row?.visible === matches, `filter "${term}": ${check.id} is ${row?.visible ? 'shown' : 'hidden'} but ${matches ? 'matches' : 'does not match'}`);
  }
  await page.fill('#filter', 'no check has this text 7f3a9c');
  const hidden = await readRows(page);
  expectThat(hidden.every((row) => !row.visible), 'a filter that matches nothing leaves rows visible');
  await page.fill('#filter', '');

  const failing = report.checks.filter((check) => Object.values(check.results).some((result) => result.status === 'failed'));
  await page.selectOption('#status-filter', 'failed');
  const byStatus = await readRows(page);
  const shown = byStatus.filter((row) => row.visible).map((row) => row.id).sort();
  expectThat(JSON.stringify(shown) === JSON.stringify(failing.map((check) => check.id).sort()), `status filter "failed" shows ${shown.join(', ') || 'nothing'}, expected ${failing.map((check) => check.id).join(', ') || 'nothing'}`);
  await page.selectOption('#status-filter', '');

  for (const level of ['spec', 'docker']) {
    await page.selectOption('#level-filter', level);
    const ofLevel = (await readRows(page)).filter((row) => row.visible).map((row) => row.id).sort();
    const expected = report.checks.filter((check) => (check.level ?? 'spec') === level).map((check) => check.id).sort();
    expectThat(JSON.stringify(ofLevel) === JSON.stringify(expected), `level filter "${level}" shows ${ofLevel.length} checks, expected ${expected.length}`);
  }
  await page.selectOption('#level-filter', '');
}

async function main(file: string | undefined): Promise<number> {
  if (!file) {
    console.error('usage: node --import tsx test/browser/check-report-html.ts path/to/report.html');
    return 2;
  }
  const htmlPath = path.resolve(file);
  const report = JSON.parse(await fs.readFile(path.join(path.dirname(htmlPath), 'report.json'), 'utf8')) as Report;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    const outside: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // Self-contained means nothing but the file itself is loaded.
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url === pathToFileURL(htmlPath).href) return route.continue();
      outside.push(url);
      return route.abort();
    });
    await page.goto(pathToFileURL(htmlPath).href);
    expectThat(outside.length === 0, `the page requested ${outside.join(', ')}`);
    assertMatrix(await readRows(page), report);
    await assertFilter(page, report);
    expectThat(pageErrors.length === 0, `the page's script threw: ${pageErrors.join('; ')}`);
    console.log(`report.html: ${report.checks.length} checks x ${report.versions.length} versions rendered`);
    return 0;
  } finally {
    await browser.close();
  }
}

try {
  process.exitCode = await main(process.argv[2]);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`check-report-html: ${error instanceof Mismatch ? '' : 'could not check: '}${message.split('\n')[0]}`);
  process.exitCode = 1;
}
