/** The per-version table `shipshape run` prints at the end. */
import type { Report } from '../report/types.ts';
import { conformanceText } from '../report/report-view.ts';

export function formatSummaryTable(report: Report): string {
  const header = ['version', 'passed', 'failed', 'error', 'skipped', 'expected', 'unexpected', 'conformance'];
  const rows = report.versions.map((version) => {
    const s = report.summary[version];
    if (!s) return [version, '-', '-', '-', '-', '-', '-', '-'];
    return [
      version,
      String(s.passed),
      String(s.failed),
      String(s.error),
      String(s.skipped),
      String(s.expectedFailures ?? 0),
      String(s.unexpectedPasses ?? 0),
      conformanceText(s),
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padStart(widths[column] ?? 0)).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}
