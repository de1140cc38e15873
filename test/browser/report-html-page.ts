/**
 * report.html in headless Chromium, checked against the report.json next to it: the grid has a row
 * per check and a cell per version with the report's status (the folded table too), areas with a
 * result that fails the gate open at load, the filter box and the status and level filters show
 * exactly the matching checks, a result that did not pass opens its details (message, and a curl
 * command when the result kept its requests), and nothing but the file is loaded.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import type { Report } from '../../harness/report/types.ts';

export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const GATE_FAILING = new Set(['failed', 'error', 'unexpected-pass']);

interface RenderedRow {
  id: string;
  /** shown: not hidden, and its area open */
  visible: boolean;
  cells: { version: string; status: string; text: string }[];
}

export class Mismatch extends Error {}

function expectThat(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Mismatch(message);
}

async function readRows(page: Page, selector: string): Promise<RenderedRow[]> {
  return page.$$eval(selector, (rows) =>
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

const gridRows = (page: Page) => readRows(page, '#grid tr[data-check]');

function assertRows(view: string, rows: RenderedRow[], report: Report): void {
  const rendered = new Map<string, RenderedRow>();
  for (const row of rows) {
    expectThat(!rendered.has(row.id), `${view}: check ${row.id} has more than one row`);
    rendered.set(row.id, row);
  }
  for (const check of report.checks) {
    const row = rendered.get(check.id);
    expectThat(row !== undefined, `${view}: no row for check ${check.id}`);
    const versions = row.cells.map((cell) => cell.version);
    expectThat(JSON.stringify(versions) === JSON.stringify(report.versions), `${view}: ${check.id}: cells for ${versions.join(',')}, expected ${report.versions.join(',')}`);
    for (const cell of row.cells) {
      const expected = check.results[cell.version]?.status ?? 'none';
      expectThat(cell.status === expected, `${view}: ${check.id} at ${cell.version}: the cell says ${cell.status}, report.json says ${expected}`);
      expectThat(cell.text.length > 0, `${view}: ${check.id} at ${cell.version}: the cell has no text symbol (colour alone)`);
    }
  }
  expectThat(rows.length === report.checks.length, `${view}: ${rows.length} rows for ${report.checks.length} checks`);
}

/** At load, an area is open exactly when one of its results fails the gate. */
async function assertAreasAtLoad(page: Page, report: Report): Promise<void> {
  const areas = await page.$$eval('#grid details[data-area]', (sections) => sections.map((section) => ({ area: (section as HTMLElement).dataset.area ?? '', open: (section as HTMLDetailsElement).open })));
  for (const { area, open } of areas) {
    const failing = report.checks.some((check) => check.area === area && Object.values(check.results).some((result) => GATE_FAILING.has(result.status)));
    expectThat(open === failing, `area ${area} is ${open ? 'open' : 'closed'} at load, but ${failing ? 'has' : 'has no'} result that fails the gate`);
  }
}

/** What the filter box searches, per check: the same fields the page's script reads from the embedded report. */
function searchableText(check: Report['checks'][number]): string {
  const results = Object.values(check.results).flatMap((result) => [result.status, result.message ?? '', result.reason ?? '']);
  return [check.id, check.area, check.title, check.spec, check.level ?? 'spec', check.seen ?? '', ...check.tags, ...results].join('\n').toLowerCase();
}

function shownIds(rows: RenderedRow[]): string {
  return JSON.stringify(rows.filter((row) => row.visible).map((row) => row.id).sort());
}

async function assertFilters(page: Page, report: Report): Promise<void> {
  const target = report.checks.at(-1);
  if (!target) return;
  const term = target.id;
  await page.fill('#filter', term);
  const expected = report.checks.filter((check) => searchableText(check).includes(term.toLowerCase())).map((check) => check.id).sort();
  expectThat(shownIds(await gridRows(page)) === JSON.stringify(expected), `filter "${term}" shows ${shownIds(await gridRows(page))}, expected ${JSON.stringify(expected)}`);
  await page.fill('#filter', 'no check has this text 7f3a9c');
  expectThat((await gridRows(page)).every((row) => !row.visible), 'a filter that matches nothing leaves rows visible');
  await page.fill('#filter', '');

  const failing = report.checks.filter((check) => Object.values(check.results).some((result) => result.status === 'failed')).map((check) => check.id).sort();
  await page.selectOption('#status-filter', 'failed');
  expectThat(shownIds(await gridRows(page)) === JSON.stringify(failing), `status filter "failed" shows ${shownIds(await gridRows(page))}, expected ${JSON.stringify(failing)}`);
  await page.selectOption('#status-filter', '');

  for (const level of ['spec', 'docker']) {
    await page.selectOption('#level-filter', level);
    const ofLevel = report.checks.filter((check) => (check.level ?? 'spec') === level).map((check) => check.id).sort();
    const shown = JSON.parse(shownIds(await gridRows(page))) as string[];
    expectThat(JSON.stringify(shown) === JSON.stringify(ofLevel), `level filter "${level}" shows ${shown.length} checks, expected ${ofLevel.length}`);
  }
  await page.selectOption('#level-filter', '');
}

/**
 * Opens the details of the first result that did not pass (preferring one that kept its requests) and
 * checks the dialog shows its check, version, message and, with requests, a curl command. Leaves the
 * dialog open for a screenshot. Returns what it opened, or undefined when every result passed or skipped.
 */
async function assertDetails(page: Page, report: Report): Promise<string | undefined> {
  const candidates = report.checks.flatMap((check) => report.versions.flatMap((version) => {
    const result = check.results[version];
    return result && result.status !== 'passed' && result.status !== 'skipped' ? [{ check, version, result }] : [];
  }));
  const chosen = candidates.find(({ result }) => result.exchanges?.length) ?? candidates[0];
  if (!chosen) return undefined;
  const { check, version, result } = chosen;
  await page.click('#close-all');
  await page.selectOption('#status-filter', result.status);
  await page.click(`#grid tr[data-check="${check.id}"] td[data-version="${version}"]`);
  const dialog = await page.$eval('#result-detail', (element) => ({ open: (element as HTMLDialogElement).open, text: element.textContent ?? '', reproduce: element.querySelector('pre.reproduce')?.textContent ?? '' }));
  expectThat(dialog.open, `clicking ${check.id} at ${version} opened no details`);
  expectThat(dialog.text.includes(`${check.id} at ${version}`), `the details of ${check.id} at ${version} do not name it`);
  const firstLine = (result.message ?? result.reason ?? '').split('\n')[0]?.trim() ?? '';
  expectThat(dialog.text.includes(firstLine), `the details of ${check.id} at ${version} do not show its message ${JSON.stringify(firstLine)}`);
  if (result.exchanges?.length) {
    expectThat(/^curl |\ncurl /.test(dialog.reproduce), `the details of ${check.id} at ${version} have no curl command: ${JSON.stringify(dialog.reproduce.slice(0, 200))}`);
    const last = result.exchanges.at(-1);
    expectThat(last !== undefined && dialog.reproduce.includes(last.path), `the curl command of ${check.id} at ${version} does not send ${last?.path}`);
  }
  return `${check.id} at ${version} (${result.status})`;
}

export interface PageCheck {
  checks: number;
  versions: number;
  /** the result whose details were opened */
  opened?: string;
}

/** Checks `htmlPath` against the report.json beside it; with `screenshot`, saves the page with a result's details open. */
export async function checkReportHtml(htmlPath: string, options: { screenshot?: string } = {}): Promise<PageCheck> {
  const report = JSON.parse(await fs.readFile(path.join(path.dirname(htmlPath), 'report.json'), 'utf8')) as Report;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
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
    await assertAreasAtLoad(page, report);
    await page.click('#open-all');
    const rows = await gridRows(page);
    assertRows('grid', rows, report);
    expectThat(rows.every((row) => row.visible), `rows hidden with every area open and no filter: ${rows.filter((row) => !row.visible).map((row) => row.id).slice(0, 5).join(', ')}`);
    assertRows('table', await readRows(page, '#matrix tr[data-check]'), report);
    await assertFilters(page, report);
    const opened = await assertDetails(page, report);
    if (options.screenshot) await page.screenshot({ path: options.screenshot, fullPage: false });
    expectThat(pageErrors.length === 0, `the page's script threw: ${pageErrors.join('; ')}`);
    return { checks: report.checks.length, versions: report.versions.length, ...(opened && { opened }) };
  } finally {
    await browser.close();
  }
}
