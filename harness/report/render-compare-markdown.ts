/** `shipshape compare`'s Markdown: a support table per area and target, then the checks × (target, version) matrix. */
import type { Comparison, SupportLevel } from './compare-model.ts';
import { mdCell, mdCode } from './markdown-text.ts';
import { STATUS_SYMBOL } from './result-statuses.ts';

export const SUPPORT_TEXT: Record<SupportLevel, string> = { full: 'full', partial: 'partial', none: 'none', 'not-run': 'not run' };

export function renderCompareMarkdown(comparison: Comparison): string {
  const { targets, areas } = comparison;
  const lines = ['# Shipshape compare', ''];
  targets.forEach((target, index) => lines.push(`- **T${index + 1}**: ${mdCell(target.label)}, at ${target.versions.join(', ')}`));
  lines.push('', '## Support by area', '', `| area | ${targets.map((_, index) => `T${index + 1}`).join(' | ')} |`, `| --- |${' --- |'.repeat(targets.length)}`);
  for (const { area, support } of areas) {
    const cells = support.map(({ level, failing }) => {
      const named = failing.map(({ id, versions }) => `${mdCode(id)} (${versions.join(', ')})`).join(', ');
      return level === 'partial' ? `partial: not ${named}` : SUPPORT_TEXT[level];
    });
    lines.push(`| ${area} | ${cells.map(mdCell).join(' | ')} |`);
  }
  const columns = targets.flatMap((target, index) => target.versions.map((version) => ({ index, version })));
  lines.push('', '## Checks', '', `| check | ${columns.map(({ index, version }) => `T${index + 1} ${version}`).join(' | ')} |`, `| --- |${' :-: |'.repeat(columns.length)}`);
  for (const { area, checks } of areas) {
    lines.push(`| **${area}** |${' |'.repeat(columns.length)}`);
    for (const check of checks) {
      const cells = columns.map(({ index, version }) => {
        const status = check.results[index]?.[version] ?? 'absent';
        return status === 'absent' ? '·' : STATUS_SYMBOL[status];
      });
      lines.push(`| ${mdCode(check.id)} | ${cells.join(' | ')} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}
