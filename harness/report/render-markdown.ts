/** summary.md: the run in Markdown, for a CI job summary or a pull request comment. */
import { mdCell, mdCode, mdFence } from './markdown-text.ts';
import { STATUS_LABEL, STATUS_SYMBOL } from './result-statuses.ts';
import { conformanceText, COUNT_COLUMNS, reportView, resultDetail, type ProblemView } from './report-view.ts';
import { CHECK_LEVELS, levelHead, OVERALL_HEAD } from './check-levels.ts';
import { truncate } from './truncate-text.ts';
import type { Report } from './types.ts';

/** Enough of a message to see what was wrong; report.html and report.json keep all of it. */
const MESSAGE_CHARS = 1200;
const MESSAGE_LINES = 20;

export function renderSummaryMarkdown(report: Report): string {
  const view = reportView(report);
  const lines: string[] = [`# ${mdCell(view.title)}`, ''];
  if (view.cutShort) lines.push(`> **${mdCell(view.cutShort)}**`, '');
  if (view.quick) lines.push(`> ${mdCell(view.quick)}`, '');
  for (const [label, value] of view.facts) lines.push(`- **${label}**: ${mdCell(value)}`);
  lines.push(`- **versions**: ${view.versions.join(', ')}`, '');

  lines.push('## Per version', '');
  // The level columns come last, side by side, so the columns before them keep their places for readers of older summaries.
  const levelHeads = CHECK_LEVELS.map(levelHead);
  lines.push(tableRow(['version', OVERALL_HEAD, ...COUNT_COLUMNS.map(([label]) => label), ...levelHeads]), tableRule(2 + COUNT_COLUMNS.length + levelHeads.length));
  for (const { version, counts, levels } of view.perVersion) {
    lines.push(tableRow([version, conformanceText(counts), ...COUNT_COLUMNS.map(([, count]) => String(count(counts))), ...CHECK_LEVELS.map((level) => conformanceText(levels[level]))]));
  }

  lines.push('', `## Per area (${OVERALL_HEAD})`, '');
  lines.push(tableRow(['area', 'checks', ...view.versions]), tableRule(2 + view.versions.length));
  for (const { area, checks, byVersion } of view.areas) {
    lines.push(tableRow([mdCell(area), String(checks.length), ...byVersion.map(({ counts }) => conformanceText(counts))]));
  }

  lines.push('', `## Per area and level: ${CHECK_LEVELS.map(levelHead).join(', ')}`, '');
  lines.push(tableRow(['area', 'level', 'checks', ...view.versions]), `| --- | --- |${' ---: |'.repeat(1 + view.versions.length)}`);
  for (const { area, checksPerLevel, byVersion } of view.areas) {
    for (const level of CHECK_LEVELS) {
      lines.push(tableRow([mdCell(area), levelHead(level), String(checksPerLevel[level]), ...byVersion.map(({ levels }) => conformanceText(levels[level]))]));
    }
  }

  lines.push('', '## Failures, errors and unexpected passes', '');
  if (view.problemsByVersion.length === 0) lines.push('None: every check passed, was skipped, or failed as expected.');
  for (const { version, problems } of view.problemsByVersion) {
    lines.push(`### ${version} (${problems.length})`, '');
    for (const problem of problems) lines.push(...problemItem(problem));
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function problemItem({ check, result, sameAs }: ProblemView): string[] {
  const head = `- ${STATUS_SYMBOL[result.status]} **${STATUS_LABEL[result.status]}** ${mdCode(check.id)}: ${mdCell(check.title)}`;
  if (sameAs !== undefined) return [`${head} (same as at ${sameAs})`];
  const detail = resultDetail(result);
  return detail ? [head, mdFence(truncate(detail, MESSAGE_CHARS, MESSAGE_LINES), '  ')] : [head];
}

function tableRow(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** The first column names the row; the others hold numbers, aligned right. */
function tableRule(columns: number): string {
  return `| --- |${' ---: |'.repeat(columns - 1)}`;
}
