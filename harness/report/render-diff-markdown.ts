/** `shipshape diff --format md`: per version, the figures per level and a table per kind of change, each change with its check's level. */
import { CHANGE_KINDS, changeTotals, changeTotalsByLevel, labelText, type ChangeKind, type ReportDiff } from './diff-model.ts';
import { CHECK_LEVELS, LEVEL_FIGURE, OVERALL_HEAD } from './check-levels.ts';
import { mdCell, mdCode } from './markdown-text.ts';
import { conformanceText } from './report-view.ts';
import { statusText } from './result-statuses.ts';
import { truncate } from './truncate-text.ts';

/** A table cell holds the gist of a message; the reports hold the rest. */
const DETAIL_CHARS = 240;

export function renderDiffMarkdown(diff: ReportDiff): string {
  const lines = ['# Shipshape diff', '', `- **A**: ${mdCell(labelText(diff.a))}`, `- **B**: ${mdCell(labelText(diff.b))}`];
  lines.push(`- **compared versions**: ${diff.comparedVersions.join(', ') || 'none'}`);
  if (diff.onlyInA.length > 0) lines.push(`- **versions only in A**: ${diff.onlyInA.join(', ')}`);
  if (diff.onlyInB.length > 0) lines.push(`- **versions only in B**: ${diff.onlyInB.join(', ')}`);
  lines.push('');
  if (diff.empty) {
    lines.push('No differences: every check has the same status at every version in both reports.');
    return `${lines.join('\n')}\n`;
  }
  const totals = changeTotals(diff);
  lines.push(kindCounts(totals), '');
  const byLevel = changeTotalsByLevel(diff);
  for (const level of CHECK_LEVELS) lines.push(`- **${level} checks**: ${kindCounts(byLevel[level])}`);
  lines.push('');

  for (const version of diff.versions) {
    lines.push(`## ${version.version}: ${OVERALL_HEAD} ${conformanceText(version.summary.a)} → ${conformanceText(version.summary.b)}`, '');
    const versionByLevel = changeTotalsByLevel([version]);
    for (const level of CHECK_LEVELS) {
      lines.push(`- **${level} checks**: ${LEVEL_FIGURE[level]} ${conformanceText(version.summary.a.levels[level])} → ${conformanceText(version.summary.b.levels[level])}; ${kindCounts(versionByLevel[level])}`);
    }
    lines.push('');
    for (const { kind, title, meaning } of CHANGE_KINDS) {
      const changes = version[kind];
      if (changes.length === 0) continue;
      lines.push(`### ${title} (${changes.length})`, '', `_${meaning}_`, '', '| check | level | A | B | detail |', '| --- | --- | --- | --- | --- |');
      for (const change of changes) {
        lines.push(`| ${mdCode(change.id)} | ${change.level} | ${statusText(change.from)} | ${statusText(change.to)} | ${mdCell(truncate(change.detail ?? '', DETAIL_CHARS))} |`);
      }
      lines.push('');
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function kindCounts(totals: Record<ChangeKind, number>): string {
  return CHANGE_KINDS.map(({ kind, title }) => `${title.toLowerCase()}: ${totals[kind]}`).join(', ');
}
