/**
 * Checks a report.html in headless Chromium against the report.json next to it (report-html-page.ts).
 * Run: node --import tsx test/browser/check-report-html.ts DIR/report.html [--screenshot FILE.png]
 */
import path from 'node:path';
import { checkReportHtml, Mismatch } from './report-html-page.ts';

async function main(args: string[]): Promise<number> {
  const [file, flag, screenshot] = args;
  if (!file || (flag !== undefined && (flag !== '--screenshot' || !screenshot))) {
    console.error('usage: node --import tsx test/browser/check-report-html.ts path/to/report.html [--screenshot FILE.png]');
    return 2;
  }
  const checked = await checkReportHtml(path.resolve(file), screenshot ? { screenshot } : {});
  console.log(`report.html: ${checked.checks} checks x ${checked.versions} versions rendered${checked.opened ? `; the details of ${checked.opened} open` : ''}${screenshot ? `; screenshot ${screenshot}` : ''}`);
  return 0;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`check-report-html: ${error instanceof Mismatch ? '' : 'could not check: '}${message.split('\n')[0]}`);
  process.exitCode = 1;
}
