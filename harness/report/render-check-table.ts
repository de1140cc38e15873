/**
 * report.html's full table of checks: a row per check with its title, spec section, level, tags,
 * a cell per version and its notes folded. The grid (render-check-grid.ts) comes first; this is
 * the table a reader opens to search or read every check's metadata.
 */
import { escapeAttribute, escapeText } from './markup-escape.ts';
import { statusBadge } from './html-page.ts';
import { STATUS_LABEL, STATUS_SYMBOL } from './result-statuses.ts';
import { notesOf, resultDetail, type AreaView } from './report-view.ts';
import { levelOf } from './check-levels.ts';
import type { CheckReport } from './types.ts';

export const TABLE_STYLE = `
#matrix tr.area-row th { background: #e7ebf0; font-size: 1rem; }
#matrix td.status { min-width: 2.2rem; }
#matrix td:first-child code { white-space: nowrap; }
#matrix details summary { cursor: pointer; white-space: nowrap; }
#matrix dl { margin: .25rem 0 0; }
#matrix dd { margin: 0 0 .4rem; max-width: 60rem; }
`;

export function checkTable(versions: string[], areas: AreaView[]): string {
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
