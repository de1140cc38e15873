/**
 * report.html: the run as one self-contained page. The summaries come first, then the checks ×
 * versions grid by area (render-check-grid.ts), then, folded, the full table (render-check-table.ts).
 * Both are static HTML, so they read without JavaScript; the inline script filters them, opens and
 * closes areas, and shows a result's details. Cells carry `data-version` and `data-status`, rows
 * `data-check`, so a browser test can read both back.
 */
import { escapeAttribute, escapeText, scriptJson } from './markup-escape.ts';
import { htmlPage, statusBadge } from './html-page.ts';
import { STATUSES, STATUS_LABEL, STATUS_SYMBOL } from './result-statuses.ts';
import { conformanceText, COUNT_COLUMNS, reportView, type ReportView, type SummaryView } from './report-view.ts';
import { CHECK_LEVELS, levelHead, OVERALL_HEAD } from './check-levels.ts';
import { checkGrid, GRID_STYLE } from './render-check-grid.ts';
import { checkTable, TABLE_STYLE } from './render-check-table.ts';
import type { CheckLevel, Report, ResultCounts } from './types.ts';

/** The statuses that fail the gate, offered as one choice of the status filter. */
const ATTENTION = 'attention';

const EXTRA_STYLE = `
.filters { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; margin: .5rem 0; }
.filters input { width: 22rem; }
.legend .badge { margin-right: .4rem; }
#table-view > summary { cursor: pointer; font-size: 1.05rem; margin: 1rem 0 .4rem; }
${GRID_STYLE}${TABLE_STYLE}`;

const SCRIPT = `
(() => {
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const searchable = new Map(data.checks.map((check) => [check.id, [check.id, check.area, check.title, check.spec, check.level || 'spec', check.seen || '', ...check.tags,
    ...Object.values(check.results).flatMap((result) => [result.status, result.message || '', result.reason || ''])].join('\\n').toLowerCase()]));
  const groups = { ${ATTENTION}: ['failed', 'error', 'unexpected-pass'] };
  const filter = document.getElementById('filter');
  const statusFilter = document.getElementById('status-filter');
  const levelFilter = document.getElementById('level-filter');
  const shown = document.getElementById('shown');
  const total = data.checks.length;
  const areas = Array.from(document.querySelectorAll('#grid details[data-area]'));
  // The areas open when the page loaded: clearing the filters brings them back.
  const openAtLoad = new Set(areas.filter((area) => area.open));
  function apply() {
    const terms = filter.value.toLowerCase().split(/\\s+/).filter(Boolean);
    const wanted = statusFilter.value ? (groups[statusFilter.value] || [statusFilter.value]) : null;
    const filtering = terms.length > 0 || wanted !== null || levelFilter.value !== '';
    let count = 0;
    for (const area of document.querySelectorAll('#grid details[data-area], #matrix tbody[data-area]')) {
      let visible = 0;
      for (const row of area.querySelectorAll('tr[data-check]')) {
        const text = searchable.get(row.dataset.check) || '';
        const statuses = Array.from(row.querySelectorAll('td[data-status]'), (cell) => cell.dataset.status);
        const show = terms.every((term) => text.includes(term)) && (!wanted || statuses.some((status) => wanted.includes(status)))
          && (!levelFilter.value || row.dataset.level === levelFilter.value);
        row.hidden = !show;
        if (show) visible += 1;
      }
      area.hidden = visible === 0;
      if (area.tagName === 'DETAILS') {
        area.open = filtering ? visible > 0 : openAtLoad.has(area);
        count += visible;
      }
    }
    shown.textContent = count + ' of ' + total + ' checks shown';
  }
  filter.addEventListener('input', apply);
  statusFilter.addEventListener('change', apply);
  levelFilter.addEventListener('change', apply);
  document.getElementById('open-all').addEventListener('click', () => areas.forEach((area) => { area.open = true; }));
  document.getElementById('close-all').addEventListener('click', () => areas.forEach((area) => { area.open = false; }));
  const dialog = document.getElementById('result-detail');
  const dialogBody = document.getElementById('result-detail-body');
  function openDetail(cell) {
    const template = document.getElementById(cell.dataset.detail);
    if (!template) return;
    dialogBody.replaceChildren(template.content.cloneNode(true));
    dialog.showModal();
  }
  const grid = document.getElementById('grid');
  grid.addEventListener('click', (event) => {
    const cell = event.target.closest('td[data-detail]');
    if (cell) openDetail(cell);
  });
  grid.addEventListener('keydown', (event) => {
    const cell = event.target.closest('td[data-detail]');
    if (cell && (event.key === 'Enter' || event.key === ' ')) { event.preventDefault(); openDetail(cell); }
  });
  apply();
})();
`;

export function renderReportHtml(report: Report): string {
  const view = reportView(report);
  const checkCount = view.areas.reduce((sum, area) => sum + area.checks.length, 0);
  const body = [
    `<header><h1>${escapeText(view.title)}</h1>`,
    ...(view.cutShort ? [`<p id="cut-short" class="badge s-error" role="alert"><strong>${escapeText(view.cutShort)}</strong></p>`] : []),
    ...(view.quick ? [`<p id="quick-run" class="badge s-skipped">${escapeText(view.quick)}</p>`] : []),
    `<dl class="facts">${view.facts.map(([label, value]) => `<dt>${escapeText(label)}</dt><dd>${escapeText(value)}</dd>`).join('')}</dl></header>`,
    `<h2>Per version: ${[OVERALL_HEAD, ...CHECK_LEVELS.map(levelHead)].join(', ')}</h2>`,
    perVersionTable(view.perVersion),
    `<h2>Checks × versions, by area</h2>`,
    '<div class="filters">',
    '<label>Filter <input id="filter" type="search" placeholder="check id, area, title or message" autocomplete="off"></label>',
    `<label>Status <select id="status-filter"><option value="">any</option><option value="${ATTENTION}">fails the gate (failed, error, unexpected pass)</option>${STATUSES.map((status) => `<option value="${status}">${STATUS_SYMBOL[status]} ${STATUS_LABEL[status]}</option>`).join('')}</select></label>`,
    `<label>Level <select id="level-filter"><option value="">any</option>${CHECK_LEVELS.map((level) => `<option value="${level}">${escapeText(levelHead(level))}</option>`).join('')}</select></label>`,
    `<span id="shown" class="muted">${checkCount} of ${checkCount} checks shown</span>`,
    '</div>',
    `<p class="legend">${STATUSES.map(statusBadge).join('')}</p>`,
    checkGrid(report, view.versions, view.areas),
    `<h2>Per area: ${OVERALL_HEAD}</h2>`,
    perAreaTable(view),
    `<h2>Per area and level: ${CHECK_LEVELS.map(levelHead).join(', ')}</h2>`,
    perAreaLevelTable(view),
    `<details id="table-view"><summary>Every check as a table: title, spec section, level, tags, a cell per version and the notes (${checkCount} rows)</summary>`,
    checkTable(view.versions, view.areas),
    '</details>',
    `<script type="application/json" id="report-data">${scriptJson(report)}</script>`,
  ].join('\n');
  return htmlPage({ title: view.title, body, extraStyle: EXTRA_STYLE, script: SCRIPT });
}

function perVersionTable(rows: SummaryView[]): string {
  // The level columns come last, side by side: the columns before them keep their places.
  const levelHeads = CHECK_LEVELS.map((level) => `<th class="num" data-level="${level}">${escapeText(levelHead(level))}</th>`).join('');
  const head = `<tr><th>version</th><th class="num">${OVERALL_HEAD}</th>${COUNT_COLUMNS.map(([label]) => `<th class="num">${label}</th>`).join('')}${levelHeads}</tr>`;
  const body = rows.map(({ version, counts, levels }) =>
    `<tr data-version="${escapeAttribute(version)}"><th>${escapeText(version)}</th><td class="num">${conformanceText(counts)}</td>${COUNT_COLUMNS.map(([, count]) => `<td class="num">${count(counts)}</td>`).join('')}${CHECK_LEVELS.map((level) => conformanceCell(version, levels[level], level)).join('')}</tr>`,
  );
  return `<table id="per-version"><thead>${head}</thead><tbody>${body.join('\n')}</tbody></table>`;
}

function perAreaTable(view: ReportView): string {
  const head = `<tr><th>area</th><th class="num">checks</th>${view.versions.map((version) => `<th class="num">${escapeText(version)}</th>`).join('')}</tr>`;
  const body = view.areas.map(({ area, checks, byVersion }) =>
    `<tr data-area="${escapeAttribute(area)}"><th>${escapeText(area)}</th><td class="num">${checks.length}</td>${byVersion.map(({ version, counts }) => conformanceCell(version, counts)).join('')}</tr>`,
  );
  return `<table id="per-area"><thead>${head}</thead><tbody>${body.join('\n')}</tbody></table>`;
}

/** Per area, a row per level: its checks and, per version, its conformance or Docker compatibility. */
function perAreaLevelTable(view: ReportView): string {
  const head = `<tr><th>area</th><th>level</th><th class="num">checks</th>${view.versions.map((version) => `<th class="num">${escapeText(version)}</th>`).join('')}</tr>`;
  const body = view.areas.flatMap(({ area, checksPerLevel, byVersion }) => CHECK_LEVELS.map((level) =>
    `<tr data-area="${escapeAttribute(area)}" data-level="${level}"><th>${escapeText(area)}</th><td>${escapeText(levelHead(level))}</td><td class="num">${checksPerLevel[level]}</td>${byVersion.map(({ version, levels }) => conformanceCell(version, levels[level], level)).join('')}</tr>`,
  ));
  return `<table id="per-area-levels"><thead>${head}</thead><tbody>${body.join('\n')}</tbody></table>`;
}

function conformanceCell(version: string, counts: ResultCounts, level?: CheckLevel): string {
  const text = conformanceText(counts);
  const tooltip = COUNT_COLUMNS.map(([label, count]) => `${count(counts)} ${label}`).join(', ');
  // Red at 0 %, green at 100 %: the hue follows conformance, the text says the number.
  const colour = text === '–' ? 'class="num s-none"' : `class="num" style="background: hsl(${Math.round(counts.conformance * 120)} 70% 85%)"`;
  return `<td data-version="${escapeAttribute(version)}"${level ? ` data-level="${level}"` : ''} ${colour} title="${escapeAttribute(tooltip)}">${text}</td>`;
}
