/**
 * report.html: the run as one self-contained page. The matrix is rendered as static HTML, so it reads
 * without JavaScript; the inline script only filters it. Cells carry `data-version` and
 * `data-status`, rows `data-check`, so a browser test can read the matrix back.
 */
import { escapeAttribute, escapeText, scriptJson } from './markup-escape.ts';
import { htmlPage, statusBadge } from './html-page.ts';
import { STATUSES, STATUS_LABEL, STATUS_SYMBOL } from './result-statuses.ts';
import { conformanceText, COUNT_COLUMNS, notesOf, reportView, resultDetail, type AreaView, type ReportView, type SummaryView } from './report-view.ts';
import { CHECK_LEVELS, levelHead, levelOf, OVERALL_HEAD } from './check-levels.ts';
import type { CheckLevel, CheckReport, Report, ResultCounts } from './types.ts';

/** The statuses that fail the gate, offered as one choice of the status filter. */
const ATTENTION = 'attention';

const EXTRA_STYLE = `
.filters { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; margin: .5rem 0; }
.filters input { width: 22rem; }
.legend .badge { margin-right: .4rem; }
#matrix tr.area-row th { background: #e7ebf0; font-size: 1rem; }
#matrix td.status { min-width: 2.2rem; }
#matrix td:first-child code { white-space: nowrap; }
#matrix details summary { cursor: pointer; white-space: nowrap; }
#matrix dl { margin: .25rem 0 0; }
#matrix dd { margin: 0 0 .4rem; max-width: 60rem; }
`;

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
  function apply() {
    const terms = filter.value.toLowerCase().split(/\\s+/).filter(Boolean);
    const wanted = statusFilter.value ? (groups[statusFilter.value] || [statusFilter.value]) : null;
    let count = 0;
    for (const area of document.querySelectorAll('#matrix tbody[data-area]')) {
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
      count += visible;
    }
    shown.textContent = count + ' of ' + total + ' checks shown';
  }
  filter.addEventListener('input', apply);
  statusFilter.addEventListener('change', apply);
  levelFilter.addEventListener('change', apply);
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
    `<h2>Per area: ${OVERALL_HEAD}</h2>`,
    perAreaTable(view),
    `<h2>Per area and level: ${CHECK_LEVELS.map(levelHead).join(', ')}</h2>`,
    perAreaLevelTable(view),
    `<h2>Checks × versions</h2>`,
    '<div class="filters">',
    '<label>Filter <input id="filter" type="search" placeholder="check id, area, title or message" autocomplete="off"></label>',
    `<label>Status <select id="status-filter"><option value="">any</option><option value="${ATTENTION}">fails the gate (failed, error, unexpected pass)</option>${STATUSES.map((status) => `<option value="${status}">${STATUS_SYMBOL[status]} ${STATUS_LABEL[status]}</option>`).join('')}</select></label>`,
    `<label>Level <select id="level-filter"><option value="">any</option>${CHECK_LEVELS.map((level) => `<option value="${level}">${escapeText(levelHead(level))}</option>`).join('')}</select></label>`,
    `<span id="shown" class="muted">${checkCount} of ${checkCount} checks shown</span>`,
    '</div>',
    `<p class="legend">${STATUSES.map(statusBadge).join('')}</p>`,
    matrix(view.versions, view.areas),
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

function matrix(versions: string[], areas: AreaView[]): string {
  const columns = 6 + versions.length;
  const head = `<tr><th>check</th><th>title</th><th>spec</th><th>level</th><th>tags</th>${versions.map((version) => `<th class="status" data-version="${escapeAttribute(version)}">${escapeText(version)}</th>`).join('')}<th>details</th></tr>`;
  const bodies = areas.map(({ area, checks }) => [
    `<tbody data-area="${escapeAttribute(area)}">`,
    `<tr class="area-row"><th colspan="${columns}">${escapeText(area)} <span class="muted">(${checks.length} check${checks.length === 1 ? '' : 's'})</span></th></tr>`,
    ...checks.map((check) => checkRow(check, versions)),
    '</tbody>',
  ].join('\n'));
  return `<table id="matrix"><thead>${head}</thead>\n${bodies.join('\n')}\n</table>`;
}

function checkRow(check: CheckReport, versions: string[]): string {
  const cells = versions.map((version) => {
    const result = check.results[version];
    if (!result) return `<td data-version="${escapeAttribute(version)}" data-status="none" class="status s-none" title="no result at ${escapeAttribute(version)}">·</td>`;
    const detail = resultDetail(result);
    const tooltip = `${STATUS_LABEL[result.status]} at ${version}${detail ? `: ${detail}` : ''}`;
    return `<td data-version="${escapeAttribute(version)}" data-status="${result.status}" class="status s-${result.status}" title="${escapeAttribute(tooltip)}">${STATUS_SYMBOL[result.status]}</td>`;
  });
  const range = check.until ? `${check.since}–${check.until}` : `${check.since}+`;
  const level = levelOf(check);
  return [
    `<tr data-check="${escapeAttribute(check.id)}" data-level="${level}">`,
    `<td><code>${escapeText(check.id)}</code></td>`,
    `<td>${escapeText(check.title)}</td>`,
    `<td>§${escapeText(check.spec)} <span class="muted">${escapeText(range)}</span></td>`,
    `<td>${level}${check.seen ? ` <span class="muted">seen on ${escapeText(check.seen)}</span>` : ''}</td>`,
    `<td>${escapeText([...check.tags, ...(check.requires ?? []).map((need) => `requires ${need}`)].join(', '))}</td>`,
    ...cells,
    `<td>${details(check, versions)}</td>`,
    '</tr>',
  ].join('');
}

/** A check's notes, folded: the matrix stays one line per check until a reader opens one. */
function details(check: CheckReport, versions: string[]): string {
  const notes = notesOf(check, versions);
  if (notes.length === 0) return '';
  const summary = notes.map((note) => `${STATUS_SYMBOL[note.status]} ${note.versions.length}`).join(' · ');
  const items = notes.map((note) =>
    `<dt>${statusBadge(note.status)} at ${escapeText(note.versions.join(', '))}</dt><dd><pre>${escapeText(note.text)}</pre></dd>`,
  );
  return `<details><summary>${escapeText(summary)}</summary><dl>${items.join('')}</dl></details>`;
}
