/**
 * The shape of report.json: ../shared/report.schema.json is the contract, this mirrors it.
 * Add optional fields freely; never remove or rename one.
 */
import type { CheckLevel } from '../check.ts';

export type { CheckLevel } from '../check.ts';

export type ResultStatus = 'passed' | 'failed' | 'error' | 'skipped' | 'expected-failure' | 'unexpected-pass';

export interface VersionResult {
  status: ResultStatus;
  durationMs?: number;
  /** why it failed: expected vs actual, and the request that showed it */
  message?: string;
  /** why it was skipped or expected to fail */
  reason?: string;
  /** optional, with `run --repeat N`: the attempts did not all end alike */
  flaky?: boolean;
  /** optional, with `run --repeat N`: how each attempt ended, in order */
  attempts?: ('passed' | 'failed' | 'error')[];
}

export interface CheckReport {
  id: string;
  title: string;
  area: string;
  spec: string;
  since: string;
  until?: string;
  tags: string[];
  requires?: string[];
  /** optional: the spec inventory ids the check covers (fixtures/spec-inventory.json) */
  covers?: string[];
  /** one entry per version of the run */
  results: Record<string, VersionResult>;
  /** optional: spec when absent (reports written before levels) */
  level?: CheckLevel;
  /** optional, for a docker-level check: the dockerd build its behaviour was seen on */
  seen?: string;
  /** optional, for a spec-level check: the spec sentences it rests on, verbatim from the passage `spec` names */
  quote?: string[];
}

/** Counts of results and the conformance they give: a version's, a level's, an area's. */
export interface ResultCounts {
  passed: number;
  failed: number;
  error: number;
  skipped: number;
  expectedFailures?: number;
  unexpectedPasses?: number;
  /** passed / (passed + failed + error + expected-failure) */
  conformance: number;
}

export interface VersionSummary extends ResultCounts {
  /** optional: the same figures per check level; spec is conformance, docker is Docker compatibility */
  levels?: Partial<Record<CheckLevel, ResultCounts>>;
}

export interface ServerVersion {
  Version?: string;
  ApiVersion?: string;
  MinAPIVersion?: string;
  Os?: string;
  Arch?: string;
}

export interface Report {
  tool: { name: 'shipshape'; version: string };
  target: {
    url: string;
    dialect: 'engine' | 'docker';
    kind: 'reference' | 'live';
    server?: ServerVersion;
    authUrl?: string;
    accountsUrl?: string;
  };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  seed: number;
  versions: string[];
  checks: CheckReport[];
  summary: Record<string, VersionSummary>;
  /** optional: `I/N` when the run was shard I of N (`run --shard`); `shipshape merge` joins the shards */
  shard?: string;
  /** optional, on a shard's report: the ids of the checks the whole run selected (every shard's), which `shipshape merge` accounts for */
  selection?: string[];
  /** optional: where the run's time went (see bench/README.md) */
  timing?: { suiteWallMs: number; checkMs: number; targetMs: number };
}
