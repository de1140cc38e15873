/** coverage.md: the totals per spec document, what is wrong, then every item with its checks and versions, its waiver, or "not covered". */
import { mdCell, mdCode } from '../report/markdown-text.ts';
import { versionRanges, type CoverageMap, type ItemCoverage } from './coverage-map.ts';

function coverageCell(item: ItemCoverage): string {
  if (item.status === 'covered') return `${item.checks.map(mdCode).join(', ')} at ${versionRanges(item.versions)}`;
  if (item.status === 'waived') return `waived: ${mdCell(item.waiver ?? '')}`;
  return '**not covered**';
}

export function renderCoverageMarkdown(map: CoverageMap): string {
  const lines = ['# Shipshape coverage of the spec inventory', '', '| document | items | covered | waived | not covered |', '| --- | --: | --: | --: | --: |'];
  for (const { document, items, covered, waived, uncovered } of map.documents) lines.push(`| spec/${document} | ${items} | ${covered} | ${waived} | ${uncovered} |`);
  const uncovered = map.items.filter((item) => item.status === 'uncovered');
  if (uncovered.length > 0) lines.push('', '## Not covered', '', ...uncovered.map((item) => `- ${mdCode(item.id)} (${item.section})`));
  if (map.unknownCovers.length > 0) {
    lines.push('', '## Ids that are not in the inventory', '', ...map.unknownCovers.map(({ check, id }) => `- ${mdCode(id)}, named by ${mdCode(check)}`));
  }
  if (map.unknownWaivers.length > 0) lines.push('', '## Waivers that match no item', '', ...map.unknownWaivers.map((waiver) => `- ${mdCode(waiver.id)}`));
  lines.push('', '## Items', '', '| item | section | coverage |', '| --- | --- | --- |');
  for (const item of map.items) lines.push(`| ${mdCode(item.id)} | ${item.section} | ${coverageCell(item)} |`);
  return `${lines.join('\n')}\n`;
}
