/** `shipshape diff --format html`: the same sections as the Markdown, as one self-contained page. */
import { CHANGE_KINDS, changeTotals, labelText, type ReportDiff, type VersionDiff } from './diff-model.ts';
import { escapeAttribute, escapeText } from './markup-escape.ts';
import { htmlPage, statusBadge } from './html-page.ts';
import { conformanceText } from './report-view.ts';

export function renderDiffHtml(diff: ReportDiff): string {
  const facts: [string, string][] = [
    ['A', labelText(diff.a)],
    ['B', labelText(diff.b)],
    ['compared versions', diff.comparedVersions.join(', ') || 'none'],
  ];
  if (diff.onlyInA.length > 0) facts.push(['versions only in A', diff.onlyInA.join(', ')]);
  if (diff.onlyInB.length > 0) facts.push(['versions only in B', diff.onlyInB.join(', ')]);
  const totals = changeTotals(diff);
  const body = [
    '<h1>Shipshape diff</h1>',
    `<dl class="facts">${facts.map(([label, value]) => `<dt>${escapeText(label)}</dt><dd>${escapeText(value)}</dd>`).join('')}</dl>`,
    diff.empty
      ? '<p id="no-differences">No differences: every check has the same status at every version in both reports.</p>'
      : `<p>${CHANGE_KINDS.map(({ kind, title }) => `${escapeText(title)}: ${totals[kind]}`).join(' · ')}</p>`,
    ...diff.versions.map(versionSection),
  ].join('\n');
  return htmlPage({ title: 'Shipshape diff', body });
}

function versionSection(version: VersionDiff): string {
  const tables = CHANGE_KINDS.filter(({ kind }) => version[kind].length > 0).map(({ kind, title, meaning }) => {
    const rows = version[kind].map((change) =>
      `<tr data-check="${escapeAttribute(change.id)}"><td><code>${escapeText(change.id)}</code></td><td>${statusBadge(change.from)}</td><td>${statusBadge(change.to)}</td><td>${change.detail ? `<pre>${escapeText(change.detail)}</pre>` : ''}</td></tr>`,
    );
    return [
      `<h3>${escapeText(title)} (${version[kind].length})</h3>`,
      `<p class="muted">${escapeText(meaning)}</p>`,
      `<table data-kind="${kind}"><thead><tr><th>check</th><th>A</th><th>B</th><th>detail</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`,
    ].join('\n');
  });
  const heading = `<h2>${escapeText(version.version)}: conformance ${conformanceText(version.summary.a)} → ${conformanceText(version.summary.b)}</h2>`;
  return `<section data-version="${escapeAttribute(version.version)}">${heading}\n${tables.join('\n')}</section>`;
}
