/**
 * What report.html and summary.md both show, computed once: the facts of the run, per-version and
 * per-area counts, and the results that fail the gate. The renderers only lay it out.
 */
import { compareVersions } from '../../protocol/versions.ts';
import { summaryAt } from './summarize.ts';
import { CHECK_LEVELS, levelOf } from './check-levels.ts';
import { failsGate } from './result-statuses.ts';
import type { CheckLevel, CheckReport, Report, ResultCounts, ResultStatus, VersionResult } from './types.ts';

export interface SummaryView {
  version: string;
  /** all checks */
  counts: ResultCounts;
  /** the spec-level checks (conformance) and the docker-level ones (Docker compatibility) apart */
  levels: Record<CheckLevel, ResultCounts>;
}

export interface AreaView {
  area: string;
  checks: CheckReport[];
  /** how many of the area's checks are of each level */
  checksPerLevel: Record<CheckLevel, number>;
  byVersion: SummaryView[];
}

export interface ProblemView {
  check: CheckReport;
  result: VersionResult;
  /** an earlier version of the run where this check ended the same way, with the same message but for the version it quotes */
  sameAs?: string;
}

export interface ReportView {
  title: string;
  /** a run cut short (report.json's `cutShort`): one sentence saying so, for a banner above everything else */
  cutShort?: string;
  /** a quick run (report.json's `profile`): one sentence saying so, for a note under the title */
  quick?: string;
  /** label, value: the target and the run, in reading order */
  facts: [string, string][];
  versions: string[];
  perVersion: SummaryView[];
  areas: AreaView[];
  problemsByVersion: { version: string; problems: ProblemView[] }[];
}

/** The counts every per-version table shows, in order, with their column titles. */
export const COUNT_COLUMNS: [string, (counts: ResultCounts) => number][] = [
  ['passed', (c) => c.passed],
  ['failed', (c) => c.failed],
  ['error', (c) => c.error],
  ['skipped', (c) => c.skipped],
  ['expected failures', (c) => c.expectedFailures ?? 0],
  ['unexpected passes', (c) => c.unexpectedPasses ?? 0],
];

export function reportView(report: Report): ReportView {
  const versions = [...report.versions].sort(compareVersions);
  const checks = [...report.checks].sort((a, b) => a.id.localeCompare(b.id));
  const areaNames = [...new Set(checks.map((check) => check.area))].sort();
  return {
    title: `Shipshape: ${report.target.url}`,
    ...(report.cutShort && { cutShort: cutShortText(report.cutShort) }),
    ...(report.profile === 'quick' && { quick: `A quick run (run --profile quick): ${checks.length} check${checks.length === 1 ? '' : 's'}, about one per endpoint and outcome class, at ${versions.join(', ')}. A sample of the suite: it certifies nothing.` }),
    facts: facts(report),
    versions,
    perVersion: versions.map((version) => summaryView(checks, version)),
    areas: areaNames.map((area) => {
      const inArea = checks.filter((check) => check.area === area);
      const checksPerLevel = Object.fromEntries(CHECK_LEVELS.map((level) => [level, inArea.filter((check) => levelOf(check) === level).length])) as Record<CheckLevel, number>;
      return { area, checks: inArea, checksPerLevel, byVersion: versions.map((version) => summaryView(inArea, version)) };
    }),
    problemsByVersion: problemsByVersion(checks, versions),
  };
}

function cutShortText({ message, at, notRun }: NonNullable<Report['cutShort']>): string {
  return `This run was cut short: ${message} (${at}). ${notRun} result${notRun === 1 ? ' was' : 's were'} not run, so its figures are not a whole run's.`;
}

function summaryView(checks: CheckReport[], version: string): SummaryView {
  const { levels, ...counts } = summaryAt(checks, version);
  return { version, counts, levels };
}

/** `97.5%`, or `–` when nothing was judged at all (conformance is 1 there, which would read as a pass). */
export function conformanceText(counts: ResultCounts): string {
  const judged = counts.passed + counts.failed + counts.error + (counts.expectedFailures ?? 0);
  if (judged === 0) return '–';
  // Rounded, but one failure in thousands never reads as 100.0%, nor one pass as 0.0%.
  const percent = Math.min(Math.max(counts.conformance * 100, counts.conformance > 0 ? 0.1 : 0), counts.conformance < 1 ? 99.9 : 100);
  return `${percent.toFixed(1)}%`;
}

/** The text that explains a result: the reason (skip or expectation), then the failure message unless it quotes the reason. */
export function resultDetail(result: VersionResult): string | undefined {
  if (result.message && result.reason && !result.message.includes(result.reason)) return `${result.reason}\n${result.message}`;
  return result.message ?? result.reason;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

function facts(report: Report): [string, string][] {
  const { target } = report;
  const server = target.server;
  const serverText = server
    ? [
        server.Version && `version ${server.Version}`,
        server.ApiVersion && `API ${server.ApiVersion}${server.MinAPIVersion ? ` (min ${server.MinAPIVersion})` : ''}`,
        server.Os && `${server.Os}${server.Arch ? `/${server.Arch}` : ''}`,
      ].filter(Boolean).join(', ')
    : 'did not answer GET /version';
  const rows: [string, string][] = [
    ['target', target.url],
    ['kind', `${target.kind}, ${target.dialect} dialect`],
    ['server', serverText],
  ];
  if (target.authUrl) rows.push(['token service', target.authUrl]);
  if (target.accountsUrl) rows.push(['accounts API', target.accountsUrl]);
  rows.push(
    ['run', `${report.startedAt} – ${report.finishedAt} (${formatDuration(report.durationMs)})`],
    ['seed', `${report.seed} (--seed ${report.seed} reproduces the property checks)`],
    ['tool', `${report.tool.name} ${report.tool.version}`],
  );
  return rows;
}

export interface NoteView {
  status: ResultStatus;
  /** the text at the first of its versions */
  text: string;
  versions: string[];
}

/** A check's messages and reasons, each told once with the versions it came at. */
export function notesOf(check: CheckReport, versions: string[]): NoteView[] {
  const notes = new Map<string, NoteView>();
  for (const version of versions) {
    const result = check.results[version];
    const text = result && resultDetail(result);
    if (!result || !text) continue;
    const key = sameOutcomeKey(result, version);
    const note = notes.get(key) ?? { status: result.status, text, versions: [] };
    note.versions.push(version);
    notes.set(key, note);
  }
  return [...notes.values()];
}

/**
 * Results that differ only in the version they quote (`GET /v1.18/info` vs `GET /v1.19/info`) tell
 * the same story: one key for both, so the story is told once.
 */
function sameOutcomeKey(result: VersionResult, version: string): string {
  return `${result.status}\n${(resultDetail(result) ?? '').split(version).join('{version}')}`;
}

function problemsByVersion(checks: CheckReport[], versions: string[]): ReportView['problemsByVersion'] {
  const firstSeen = new Map<string, string>();
  return versions
    .map((version) => {
      const problems: ProblemView[] = [];
      for (const check of checks) {
        const result = check.results[version];
        if (!result || !failsGate(result.status)) continue;
        const key = `${check.id}\n${sameOutcomeKey(result, version)}`;
        const sameAs = firstSeen.get(key);
        if (sameAs === undefined) firstSeen.set(key, version);
        problems.push({ check, result, ...(sameAs === undefined ? {} : { sameAs }) });
      }
      return { version, problems };
    })
    .filter(({ problems }) => problems.length > 0);
}
