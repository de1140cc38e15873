/** The per-version table `shipshape run` prints at the end: overall, conformance and Docker compatibility side by side. */
import type { Report } from '../report/types.ts';
import { conformanceText } from '../report/report-view.ts';
import { CHECK_LEVELS, levelHead, OVERALL_FIGURE, OVERALL_HEAD } from '../report/check-levels.ts';

export function formatSummaryTable(report: Report): string {
  // The level columns come last and are headed by the level alone, to keep the table within a terminal's width.
  const header = ['version', 'passed', 'failed', 'error', 'skipped', 'expected', 'unexpected', OVERALL_FIGURE, ...CHECK_LEVELS];
  const rows = report.versions.map((version) => {
    const s = report.summary[version];
    if (!s) return [version, ...header.slice(1).map(() => '-')];
    return [
      version,
      String(s.passed),
      String(s.failed),
      String(s.error),
      String(s.skipped),
      String(s.expectedFailures ?? 0),
      String(s.unexpectedPasses ?? 0),
      conformanceText(s),
      ...CHECK_LEVELS.map((level) => {
        const counts = s.levels?.[level];
        return counts ? conformanceText(counts) : '-';
      }),
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padStart(widths[column] ?? 0)).join('  ');
  const legend = [`${OVERALL_FIGURE}: ${OVERALL_HEAD}`, ...CHECK_LEVELS.map((level) => `${level}: ${levelHead(level)}`)].join('; ');
  return [line(header), ...rows.map(line), legend].join('\n');
}
