/** Writes the four report files of a run into one directory and returns their paths. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { renderJunit } from './render-junit.ts';
import { renderReportHtml } from './render-html.ts';
import { renderSummaryMarkdown } from './render-markdown.ts';
import type { Report } from './types.ts';

const RENDERERS: [file: string, render: (report: Report) => string][] = [
  ['report.json', (report) => `${JSON.stringify(report, null, 2)}\n`],
  ['junit.xml', renderJunit],
  ['report.html', renderReportHtml],
  ['summary.md', renderSummaryMarkdown],
];

export async function writeReports(report: Report, dir: string): Promise<string[]> {
  await fs.mkdir(dir, { recursive: true });
  return Promise.all(
    RENDERERS.map(async ([file, render]) => {
      const target = path.resolve(dir, file);
      await fs.writeFile(target, render(report), 'utf8');
      return target;
    }),
  );
}
