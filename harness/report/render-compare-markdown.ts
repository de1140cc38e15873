/**
 * `shipshape compare`'s Markdown: a support table per area and target, the same per check level
 * (conformance and Docker compatibility side by side), then the checks × (target, version) matrix.
 */
import type { AreaSupport, Comparison, SupportLevel } from './compare-model.ts';
import { CHECK_LEVELS, LEVEL_FIGURE } from './check-levels.ts';
import { mdCell, mdCode } from './markdown-text.ts';
import { STATUS_SYMBOL } from './result-statuses.ts';

export const SUPPORT_TEXT: Record<SupportLevel, string> = { full: 'full', partial: 'partial', none: 'none', 'not-run': 'not run' };

export function renderCompareMarkdown(comparison: Comparison): string {
  const { targets, areas } = comparison;
  const lines = ['# Shipshape compare', ''];
  targets.forEach((target, index) => lines.push(`- **T${index + 1}**: ${mdCell(target.label)}, at ${target.versions.join(', ')}`));
  lines.push('', '## Support by area', '', `| area | ${targets.map((_, index) => `T${index + 1}`).join(' | ')} |`, `| --- |${' --- |'.repeat(targets.length)}`);
  for (const { area, support } of areas) lines.push(`| ${area} | ${support.map(supportText).map(mdCell).join(' | ')} |`);

  const levelColumns = targets.flatMap((_, index) => CHECK_LEVELS.map((level) => ({ index, level })));
  lines.push('', `## Support by area and level: ${CHECK_LEVELS.map((level) => `${LEVEL_FIGURE[level]} (${level} checks)`).join(', ')}`, '');
  lines.push(`| area | ${levelColumns.map(({ index, level }) => `T${index + 1} ${LEVEL_FIGURE[level]}`).join(' | ')} |`, `| --- |${' --- |'.repeat(levelColumns.length)}`);
  for (const { area, levels } of areas) {
    lines.push(`| ${area} | ${levelColumns.map(({ index, level }) => mdCell(supportText(levels[level][index] ?? { level: 'not-run', failing: [] }))).join(' | ')} |`);
  }

  const columns = targets.flatMap((target, index) => target.versions.map((version) => ({ index, version })));
  lines.push('', '## Checks', '', `| check | level | ${columns.map(({ index, version }) => `T${index + 1} ${version}`).join(' | ')} |`, `| --- | --- |${' :-: |'.repeat(columns.length)}`);
  for (const { area, checks } of areas) {
    lines.push(`| **${area}** | |${' |'.repeat(columns.length)}`);
    for (const check of checks) {
      const cells = columns.map(({ index, version }) => {
        const status = check.results[index]?.[version] ?? 'absent';
        return status === 'absent' ? '·' : STATUS_SYMBOL[status];
      });
      lines.push(`| ${mdCode(check.id)} | ${check.level} | ${cells.join(' | ')} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function supportText({ level, failing }: AreaSupport): string {
  const named = failing.map(({ id, versions }) => `${mdCode(id)} (${versions.join(', ')})`).join(', ');
  return level === 'partial' ? `partial: not ${named}` : SUPPORT_TEXT[level];
}
