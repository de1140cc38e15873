/** `shipshape diff --format html`: the same sections as the Markdown, as one self-contained page. */
import { CHANGE_KINDS, changeTotals, changeTotalsByLevel, labelText, type ChangeKind, type ReportDiff, type VersionDiff } from './diff-model.ts';
import { CHECK_LEVELS, LEVEL_FIGURE, OVERALL_HEAD } from './check-levels.ts';
import { escapeAttribute, escapeText } from './markup-escape.ts';
import { htmlPage, statusBadge } from './html-page.ts';
import { conformanceText } from './report-view.ts';
import type { CheckLevel } from './types.ts';

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
      : `<p>${kindCounts(totals)}</p>${levelCounts(changeTotalsByLevel(diff))}`,
    ...diff.versions.map(versionSection),
  ].join('\n');
  return htmlPage({ title: 'Shipshape diff', body });
}

function versionSection(version: VersionDiff): string {
  const tables = CHANGE_KINDS.filter(({ kind }) => version[kind].length > 0).map(({ kind, title, meaning }) => {
    const rows = version[kind].map((change) =>
      `<tr data-check="${escapeAttribute(change.id)}" data-level="${change.level}"><td><code>${escapeText(change.id)}</code></td><td>${change.level}</td><td>${statusBadge(change.from)}</td><td>${statusBadge(change.to)}</td><td>${change.detail ? `<pre>${escapeText(change.detail)}</pre>` : ''}</td></tr>`,
    );
    return [
      `<h3>${escapeText(title)} (${version[kind].length})</h3>`,
      `<p class="muted">${escapeText(meaning)}</p>`,
      `<table data-kind="${kind}"><thead><tr><th>check</th><th>level</th><th>A</th><th>B</th><th>detail</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`,
    ].join('\n');
  });
  const heading = `<h2>${escapeText(version.version)}: ${OVERALL_HEAD} ${conformanceText(version.summary.a)} → ${conformanceText(version.summary.b)}</h2>`;
  const figures = CHECK_LEVELS.map((level) => `<li data-level="${level}">${escapeText(`${LEVEL_FIGURE[level]} (${level} checks) ${conformanceText(version.summary.a.levels[level])} → ${conformanceText(version.summary.b.levels[level])}`)}</li>`);
  return `<section data-version="${escapeAttribute(version.version)}">${heading}\n<ul class="levels">${figures.join('')}</ul>${levelCounts(changeTotalsByLevel([version]))}\n${tables.join('\n')}</section>`;
}

function kindCounts(totals: Record<ChangeKind, number>): string {
  return CHANGE_KINDS.map(({ kind, title }) => `${escapeText(title)}: ${totals[kind]}`).join(' · ');
}

/** The changes of each kind per check level: `data-level` rows a reader (or a test) can pick. */
function levelCounts(byLevel: Record<CheckLevel, Record<ChangeKind, number>>): string {
  return `<table class="level-counts"><tbody>${CHECK_LEVELS.map((level) => `<tr data-level="${level}"><th>${level} checks</th><td>${kindCounts(byLevel[level])}</td></tr>`).join('')}</tbody></table>`;
}
