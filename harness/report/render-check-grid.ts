/**
 * report.html's first view of the results: a compact checks × versions grid, one coloured cell per
 * result, grouped by area in collapsible sections (open where something fails the gate). A result
 * that did not pass opens its details on demand: the message, the spec text the check rests on, the
 * requests and responses, and a command that sends the last request again. Each result's details are
 * rendered here, as a <template> the page's script shows in a dialog, so the page needs no renderer
 * of its own and every text is escaped in one place.
 */
import { describeExchange, type ExchangeRecord } from '../client/api-response.ts';
import { escapeAttribute, escapeText } from './markup-escape.ts';
import { statusBadge } from './html-page.ts';
import { failsGate, STATUS_LABEL, STATUS_SYMBOL, STATUSES } from './result-statuses.ts';
import { levelHead, levelOf } from './check-levels.ts';
import { resultDetail, type AreaView } from './report-view.ts';
import { reproduceCommand } from './reproduce-command.ts';
import { truncate } from './truncate-text.ts';
import type { CheckReport, Report, ResultStatus, VersionResult } from './types.ts';

export const GRID_STYLE = `
#grid details.area { border: 1px solid #d0d4d9; border-radius: .3rem; margin: .3rem 0; }
#grid details.area > summary { cursor: pointer; padding: .25rem .5rem; background: #f6f7f9; }
#grid details.area > summary .badge { margin-left: .35rem; font-size: 12px; }
#grid table.grid { margin: .25rem .5rem .5rem; }
#grid table.grid th, #grid table.grid td { padding: 0 .3rem; font-size: 12px; line-height: 1.5; }
#grid table.grid th .muted { font-weight: normal; font-size: 11px; }
#grid table.grid td.cell { width: 2.1rem; text-align: center; font-weight: 600; }
#grid td[data-detail] { cursor: pointer; text-decoration: underline dotted; }
#grid td[data-detail]:focus { outline: 2px solid #123f8c; }
dialog#result-detail { max-width: min(70rem, 92vw); max-height: 88vh; overflow: auto; border: 1px solid #8a939e; border-radius: .4rem; }
dialog#result-detail h3 { margin: 0 0 .3rem; font-size: 1.05rem; }
dialog#result-detail h4 { margin: .8rem 0 .2rem; font-size: .95rem; }
dialog#result-detail blockquote { margin: .2rem 0; padding: .1rem .6rem; border-left: 3px solid #8a939e; }
dialog#result-detail ol { padding-left: 1.4rem; margin: .2rem 0; }
dialog#result-detail pre.reproduce { background: #1d1d1f; color: #f1f3f5; padding: .4rem .6rem; border-radius: .25rem; }
`;

/** The statuses whose cells open details: each says why, with the requests when the check made any. */
function hasDetails(result: VersionResult): boolean {
  return result.status !== 'passed' && result.status !== 'skipped';
}

/** The id of a result's details template, stable for one rendering. */
function detailId(index: number): string {
  return `detail-${index}`;
}

/** The grid, the dialog the details open in, and the details' templates. */
export function checkGrid(report: Report, versions: string[], areas: AreaView[]): string {
  const templates: string[] = [];
  const sections = areas.map((area) => areaSection(area, versions, (check, version, result) => {
    const id = detailId(templates.length);
    templates.push(`<template id="${id}">${resultDetails(report, check, version, result)}</template>`);
    return id;
  }));
  return [
    '<p class="grid-controls"><button type="button" id="open-all">open every area</button> <button type="button" id="close-all">close every area</button>',
    ' <span class="muted">A cell underlined opens the result\'s details: the message, the spec text, the requests and a command that sends the last one again.</span></p>',
    `<div id="grid">\n${sections.join('\n')}\n</div>`,
    '<dialog id="result-detail"><form method="dialog"><button type="submit" id="close-detail">close</button></form><div id="result-detail-body"></div></dialog>',
    templates.join('\n'),
  ].join('\n');
}

function areaSection(area: AreaView, versions: string[], addDetails: (check: CheckReport, version: string, result: VersionResult) => string): string {
  const counts = new Map<ResultStatus, number>();
  for (const check of area.checks) for (const result of Object.values(check.results)) counts.set(result.status, (counts.get(result.status) ?? 0) + 1);
  const attention = [...counts.keys()].some(failsGate);
  const badges = STATUSES.filter((status) => counts.has(status))
    .map((status) => `<span class="badge status s-${status}" title="${STATUS_LABEL[status]}">${STATUS_SYMBOL[status]} ${counts.get(status)}</span>`).join('');
  const head = `<tr><th>check</th>${versions.map((version) => `<th class="status">${escapeText(version)}</th>`).join('')}</tr>`;
  const rows = area.checks.map((check) => {
    const cells = versions.map((version) => gridCell(check, version, addDetails));
    return `<tr data-check="${escapeAttribute(check.id)}" data-level="${levelOf(check)}"><th title="${escapeAttribute(`${check.title} (${levelHead(levelOf(check))})`)}"><code>${escapeText(check.id.slice(area.area.length + 1))}</code>${levelOf(check) === 'docker' ? ' <span class="muted">docker</span>' : ''}</th>${cells.join('')}</tr>`;
  });
  return [
    `<details class="area" data-area="${escapeAttribute(area.area)}"${attention ? ' open' : ''}>`,
    `<summary><strong>${escapeText(area.area)}</strong> <span class="muted">${area.checks.length} check${area.checks.length === 1 ? '' : 's'}</span>${badges}</summary>`,
    `<table class="grid"><thead>${head}</thead><tbody>\n${rows.join('\n')}\n</tbody></table>`,
    '</details>',
  ].join('\n');
}

function gridCell(check: CheckReport, version: string, addDetails: (check: CheckReport, version: string, result: VersionResult) => string): string {
  const result = check.results[version];
  if (!result) return `<td data-version="${escapeAttribute(version)}" data-status="none" class="cell s-none" title="no result at ${escapeAttribute(version)}">·</td>`;
  const detail = resultDetail(result);
  // The tooltip is a glance; the details hold the whole message.
  const tooltip = `${check.id} at ${version}: ${STATUS_LABEL[result.status]}${detail ? `\n${truncate(detail, 300, 4)}` : ''}`;
  const opens = hasDetails(result) ? ` data-detail="${addDetails(check, version, result)}" tabindex="0" role="button"` : '';
  return `<td data-version="${escapeAttribute(version)}" data-status="${result.status}" class="cell s-${result.status}" title="${escapeAttribute(tooltip)}"${opens}>${STATUS_SYMBOL[result.status]}</td>`;
}

/** What the spec says under this check, or, for a docker-level one, that its ground is dockerd. */
function groundOf(check: CheckReport): string {
  if (levelOf(check) === 'docker') {
    return `<p>Docker-level: behaviour the spec does not state, as dockerd shows it${check.seen ? ` (seen on ${escapeText(check.seen)})` : ''}. It counts toward Docker compatibility, never toward conformance (spec checks).</p>`;
  }
  if (!check.quote?.length) return `<p class="muted">The report carries no quote for this check: read spec/${escapeText(check.spec)}.</p>`;
  return check.quote.map((sentence) => `<blockquote>${escapeText(sentence)}</blockquote>`).join('');
}

function exchangeItem(exchange: ExchangeRecord, report: Report): string {
  const sent = exchange.sent;
  const request = [
    ...Object.entries(sent?.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    ...(sent?.body !== undefined ? ['', sent.body] : sent?.bodyBytes !== undefined ? ['', `(a ${sent.bodyBytes}-byte body, not kept)`] : []),
  ];
  return [
    `<li><code>${escapeText(describeExchange({ ...exchange, bodyPreview: undefined }))}</code>`,
    request.length > 0 ? `<div class="muted">sent:</div><pre>${escapeText(request.join('\n'))}</pre>` : '',
    exchange.bodyPreview ? `<div class="muted">answered (first bytes):</div><pre>${escapeText(exchange.bodyPreview)}</pre>` : '',
    `<details><summary>send it again</summary><pre class="reproduce">${escapeText(reproduceCommand(report.target, exchange))}</pre></details>`,
    '</li>',
  ].join('');
}

/** One result's details: what the dialog shows when its cell is opened. */
function resultDetails(report: Report, check: CheckReport, version: string, result: VersionResult): string {
  const exchanges = result.exchanges ?? [];
  const last = exchanges.at(-1);
  const range = check.until ? `${check.since}–${check.until}` : `${check.since}+`;
  return [
    `<h3><code>${escapeText(check.id)}</code> at ${escapeText(version)}: ${statusBadge(result.status)}</h3>`,
    `<p>${escapeText(check.title)} <span class="muted">§${escapeText(check.spec)}, ${escapeText(range)}, ${escapeText(levelHead(levelOf(check)))}</span></p>`,
    '<h4>Message</h4>',
    `<pre class="message">${escapeText(resultDetail(result) ?? 'no message')}</pre>`,
    `<h4>${levelOf(check) === 'docker' ? 'What it rests on' : `The spec text it rests on (spec/${escapeText(check.spec)})`}</h4>`,
    groundOf(check),
    ...(last
      ? [
          '<h4>Reproduce: the last request, as curl</h4>',
          `<pre class="reproduce">${escapeText(reproduceCommand(report.target, last))}</pre>`,
          `<h4>Requests and responses (the last ${exchanges.length}, oldest first)</h4>`,
          `<ol class="exchanges">${exchanges.map((exchange) => exchangeItem(exchange, report)).join('')}</ol>`,
        ]
      : ['<p class="muted">No requests were recorded for this result (a report written before they were, or a check that timed out before it ended).</p>']),
  ].join('\n');
}
