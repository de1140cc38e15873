/**
 * Findings of the fuzz that are known and owned (test/fuzz/known-findings.json): one entry per class,
 * a 5xx (endpoint, status, message pattern), a hang (a pattern of the request line) or slow `/_ping`
 * answers (up to `maxMs`), each with why it is left and who takes it next. A listed finding is reported but does not fail the run; any other
 * does. A listed class not seen in a run is reported as perhaps fixed (not a failure: which requests
 * hang or race depends on timing).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FiveHundredClass, FuzzSummary, RequestLine } from './fuzz-run.ts';

export interface KnownFinding {
  kind: '5xx' | 'hang' | 'slow-ping';
  /** the inventory's endpoint id (5xx) */
  endpoint?: string;
  status?: number;
  /** a regular expression the answer's message (5xx) or the request line (hang) matches */
  pattern?: string;
  /** slow-ping: pings answered within this are listed; slower ones still fail */
  maxMs?: number;
  reason: string;
  owner: string;
}

export interface Triage {
  /** findings not in the list: these fail the run */
  unlisted: { fiveHundreds: FiveHundredClass[]; hangs: RequestLine[]; pingMisses: FuzzSummary['pings']['misses'] };
  /** listed classes seen this run, with how many answers or requests they took */
  listed: Array<{ finding: KnownFinding; count: number }>;
  /** listed classes not seen this run */
  notSeen: KnownFinding[];
}

export const KNOWN_FINDINGS_FILE = 'test/fuzz/known-findings.json';

export async function readKnownFindings(root: string): Promise<KnownFinding[]> {
  return JSON.parse(await readFile(join(root, KNOWN_FINDINGS_FILE), 'utf8')) as KnownFinding[];
}

function matches5xx(finding: KnownFinding, entry: FiveHundredClass): boolean {
  return finding.kind === '5xx' && finding.endpoint === entry.endpoint && (finding.status === undefined || finding.status === entry.status) && new RegExp(finding.pattern ?? '').test(entry.message);
}

function matchesHang(finding: KnownFinding, hang: RequestLine): boolean {
  return finding.kind === 'hang' && new RegExp(finding.pattern ?? '').test(hang.line);
}

function matchesPing(finding: KnownFinding, miss: { ms: number }): boolean {
  return finding.kind === 'slow-ping' && miss.ms <= (finding.maxMs ?? 0);
}

export function triage(summary: FuzzSummary, known: readonly KnownFinding[]): Triage {
  const counts = new Map<KnownFinding, number>();
  const count = (finding: KnownFinding | undefined, by: number) => {
    if (finding) counts.set(finding, (counts.get(finding) ?? 0) + by);
    return finding !== undefined;
  };
  const fiveHundreds = summary.fiveHundreds.filter((entry) => !entry.allowed && !count(known.find((finding) => matches5xx(finding, entry)), entry.count));
  const hangs = summary.hangs.filter((hang) => !count(known.find((finding) => matchesHang(finding, hang)), 1));
  const pingMisses = summary.pings.misses.filter((miss) => !count(known.find((finding) => matchesPing(finding, miss)), 1));
  return {
    unlisted: { fiveHundreds, hangs, pingMisses },
    listed: [...counts].map(([finding, seen]) => ({ finding, count: seen })),
    notSeen: known.filter((finding) => !counts.has(finding)),
  };
}

export function formatTriage({ listed, notSeen }: Triage): string {
  const name = (finding: KnownFinding) => `${finding.kind} ${finding.endpoint ?? ''} ${finding.status ?? ''} ${finding.pattern === undefined ? '' : `/${finding.pattern}/`} ${finding.maxMs === undefined ? '' : `≤ ${finding.maxMs} ms`}`.replace(/ +/g, ' ').trim();
  return [
    ...listed.map(({ finding, count }) => `known (${KNOWN_FINDINGS_FILE}): ×${count} ${name(finding)}: ${finding.reason} [${finding.owner}]`),
    ...notSeen.map((finding) => `not seen this run (fixed? remove from ${KNOWN_FINDINGS_FILE}): ${name(finding)}`),
  ].join('\n');
}
