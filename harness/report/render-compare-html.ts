/**
 * `shipshape compare`'s HTML: the same support tables and matrix as the Markdown, as one self-contained
 * page. On this page `data-level` is a support level (full, partial, none, not-run), as it was before
 * check levels; a check level (spec, docker) is `data-check-level`.
 */
import type { AreaSupport, Comparison, CompareTarget } from './compare-model.ts';
import { CHECK_LEVELS, LEVEL_FIGURE, levelHead, OVERALL_HEAD } from './check-levels.ts';
import { htmlPage, statusBadge } from './html-page.ts';
import { escapeAttribute, escapeText } from './markup-escape.ts';
import { SUPPORT_TEXT } from './render-compare-markdown.ts';
import { STATUS_LABEL, STATUS_SYMBOL } from './result-statuses.ts';

const EXTRA_STYLE = `
.support-full { background: #d3f2dc; }
.support-partial { background: #fff3bf; }
.support-none { background: #fbd3d0; }
.support-not-run { background: #eceef1; }
td.cell { text-align: center; padding: 0 .3rem; }
th.target { text-align: center; }
tr.area th { background: #f8f9fa; text-align: left; }
`;

export function renderCompareHtml(comparison: Comparison): string {
  const { targets, areas } = comparison;
  const header = (target: CompareTarget, index: number, span = 1) => `<th class="target"${span > 1 ? ` colspan="${span}"` : ''} data-target="${index}">T${index + 1}<br><span class="muted">${escapeText(target.label)}</span></th>`;
  const supportRows = areas.map(({ area, support }) => `<tr data-area="${escapeAttribute(area)}"><th>${escapeText(area)}</th>${support.map((cell) => supportCell(cell)).join('')}</tr>`);
  const levelColumns = targets.flatMap((_, index) => CHECK_LEVELS.map((level) => ({ index, level })));
  const levelRows = areas.map(({ area, levels }) => {
    const cells = levelColumns.map(({ index, level }) => supportCell(levels[level][index] ?? { level: 'not-run', failing: [] }, `data-target="${index}" data-check-level="${level}"`));
    return `<tr data-area="${escapeAttribute(area)}"><th>${escapeText(area)}</th>${cells.join('')}</tr>`;
  });
  const columns = targets.flatMap((target, index) => target.versions.map((version) => ({ index, version })));
  const matrixRows = areas.flatMap(({ area, checks }) => [
    `<tr class="area"><th colspan="${columns.length + 2}">${escapeText(area)}</th></tr>`,
    ...checks.map((check) => {
      const cells = columns.map(({ index, version }) => {
        const status = check.results[index]?.[version] ?? 'absent';
        const title = status === 'absent' ? 'no result' : STATUS_LABEL[status];
        return `<td class="cell status s-${status === 'absent' ? 'none' : status}" data-target="${index}" data-version="${escapeAttribute(version)}" data-status="${status}" title="${escapeAttribute(title)}">${escapeText(status === 'absent' ? '·' : STATUS_SYMBOL[status])}</td>`;
      });
      return `<tr data-check="${escapeAttribute(check.id)}" data-check-level="${check.level}"><td><code>${escapeText(check.id)}</code></td><td>${check.level}</td>${cells.join('')}</tr>`;
    }),
  ]);
  const legend = (['passed', 'failed', 'error', 'skipped', 'expected-failure', 'unexpected-pass'] as const).map(statusBadge).join(' ');
  const body = [
    '<h1>Shipshape compare</h1>',
    `<h2>Support by area and level: ${escapeText(CHECK_LEVELS.map(levelHead).join(', '))}</h2>`,
    '<table id="support-levels"><thead>',
    `<tr><th rowspan="2">area</th>${targets.map((target, index) => header(target, index, CHECK_LEVELS.length)).join('')}</tr>`,
    `<tr>${levelColumns.map(({ index, level }) => `<th data-target="${index}" data-check-level="${level}">${escapeText(LEVEL_FIGURE[level])}</th>`).join('')}</tr>`,
    `</thead><tbody>${levelRows.join('\n')}</tbody></table>`,
    `<h2>Support by area: ${OVERALL_HEAD}</h2>`,
    `<table id="support"><thead><tr><th>area</th>${targets.map((target, index) => header(target, index)).join('')}</tr></thead><tbody>${supportRows.join('\n')}</tbody></table>`,
    '<h2>Checks</h2>',
    `<p>${legend}</p>`,
    '<table id="matrix"><thead>',
    `<tr><th rowspan="2">check</th><th rowspan="2">level</th>${targets.map((target, index) => header(target, index, target.versions.length)).join('')}</tr>`,
    `<tr>${columns.map(({ index, version }) => `<th class="num" data-target="${index}" data-version="${escapeAttribute(version)}">${escapeText(version)}</th>`).join('')}</tr>`,
    `</thead><tbody>${matrixRows.join('\n')}</tbody></table>`,
  ].join('\n');
  return htmlPage({ title: 'Shipshape compare', body, extraStyle: EXTRA_STYLE });
}

/** A support level in words and colour; partial names the checks that did not pass, and where. */
function supportCell({ level, failing }: AreaSupport, attributes = ''): string {
  const named = failing.map(({ id, versions }) => `<li><code>${escapeText(id)}</code> (${escapeText(versions.join(', '))})</li>`).join('');
  return `<td class="support-${level}" ${attributes ? `${attributes} ` : ''}data-level="${level}"><strong>${escapeText(SUPPORT_TEXT[level])}</strong>${level === 'partial' ? `<ul>${named}</ul>` : ''}</td>`;
}
