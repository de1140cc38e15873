/**
 * report.html in headless Chromium (test/browser/report-html-page.ts): the sample report, whose
 * failures keep their requests, rendered and checked as the CI checks real runs' pages: grid, table,
 * filters, areas open where something fails, and a failure's details with its curl command. The
 * screenshot, with the details open, is left in the temporary directory for a reader. Skipped where
 * Chromium is not installed.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { renderReportHtml } from '../../harness/report/render-html.ts';
import { checkReportHtml, CHROMIUM, Mismatch } from '../browser/report-html-page.ts';
import { sampleReport } from './sample-report.ts';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shipshape-report-html-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeReport(name: string, html: (report: ReturnType<typeof sampleReport>) => string): Promise<string> {
  const report = sampleReport();
  const sub = join(dir, name);
  await mkdir(sub);
  await writeFile(join(sub, 'report.json'), JSON.stringify(report));
  await writeFile(join(sub, 'report.html'), html(report));
  return join(sub, 'report.html');
}

test.skipIf(!existsSync(CHROMIUM))('the page shows the report: grid, table, filters and a failure\'s details with its curl command', { timeout: 60_000 }, async () => {
  const page = await writeReport('good', renderReportHtml);
  const screenshot = join(dir, 'details.png');
  const checked = await checkReportHtml(page, { screenshot });
  expect(checked).toEqual({ checks: 11, versions: 8, opened: 'containers.create.no-cmd at 1.18 (failed)' });
  expect((await stat(screenshot)).size).toBeGreaterThan(10_000);
});

test.skipIf(!existsSync(CHROMIUM))('the page check fails a page whose grid disagrees with report.json', { timeout: 60_000 }, async () => {
  const page = await writeReport('flipped', (report) => renderReportHtml(report).replace('data-version="1.25" data-status="passed" class="cell s-passed"', 'data-version="1.25" data-status="failed" class="cell s-failed"'));
  const refused: unknown = await checkReportHtml(page).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(Mismatch);
  expect((refused as Error).message).toMatch(/^grid: .* at 1\.25: the cell says failed, report\.json says passed$/);
});
