/**
 * The shell of Shipshape's HTML pages (report.html, `diff --format html`): one self-contained file,
 * inline CSS and script, nothing fetched, so it opens from file:// or as a CI artifact.
 */
import { escapeText } from './markup-escape.ts';
import { statusText } from './result-statuses.ts';
import type { ResultStatus } from './types.ts';

const STYLE = `
:root { font: 14px/1.45 system-ui, sans-serif; color: #1d1d1f; background: #fff; }
body { margin: 1.5rem; }
h1 { font-size: 1.4rem; margin: 0 0 .75rem; }
h2 { font-size: 1.15rem; margin: 1.75rem 0 .5rem; }
table { border-collapse: collapse; margin: .25rem 0 1rem; }
th, td { border: 1px solid #d0d4d9; padding: .2rem .45rem; text-align: left; vertical-align: top; }
thead th { background: #f1f3f5; position: sticky; top: 0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; margin: 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
code, pre { font: 12px/1.4 ui-monospace, monospace; }
pre { white-space: pre-wrap; word-break: break-word; margin: .2rem 0; max-height: 24rem; overflow: auto; }
.status { text-align: center; white-space: nowrap; font-weight: 600; }
.s-passed { background: #d3f2dc; color: #0f5323; }
.s-failed { background: #fbd3d0; color: #8a1610; }
.s-error { background: #ffe0b8; color: #7a3d00; }
.s-skipped { background: #eceef1; color: #5b6470; }
.s-expected-failure { background: #fff3bf; color: #6b5500; }
.s-unexpected-pass { background: #d4e4ff; color: #123f8c; }
.s-none { background: #fff; color: #9aa1ab; }
.badge { display: inline-block; padding: 0 .35rem; border-radius: .25rem; }
.muted { color: #5b6470; }
`;

export function htmlPage(options: { title: string; body: string; extraStyle?: string; script?: string }): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeText(options.title)}</title>`,
    `<style>${STYLE}${options.extraStyle ?? ''}</style>`,
    '</head>',
    '<body>',
    options.body,
    options.script ? `<script>${options.script}</script>` : '',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** A status as symbol and words, coloured. */
export function statusBadge(status: ResultStatus | 'absent'): string {
  return `<span class="badge status s-${status === 'absent' ? 'none' : status}">${escapeText(statusText(status))}</span>`;
}
