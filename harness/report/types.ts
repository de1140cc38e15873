/**
 * The shape of report.json: ../shared/report.schema.json is the contract, this mirrors it.
 * Add optional fields freely; never remove or rename one.
 */
import type { CheckLevel } from '../check.ts';
import type { ExchangeRecord } from '../client/api-response.ts';

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
  /** optional, on a result that did not pass: the check's last requests (oldest first) with what came back, credentials masked */
  exchanges?: ExchangeRecord[];
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

/** What GET /info said of the target that a reader of a certificate needs: the engine, its host, its storage. */
export interface ServerInfo {
  ServerVersion?: string;
  OperatingSystem?: string;
  OSType?: string;
  Architecture?: string;
  KernelVersion?: string;
  Driver?: string;
  NCPU?: number;
  MemTotal?: number;
}

/** The essentials of a GET /info answer, the fields of other types or absent left out. */
export function infoEssentials(info: Record<string, unknown>): ServerInfo {
  const texts = ['ServerVersion', 'OperatingSystem', 'OSType', 'Architecture', 'KernelVersion', 'Driver'] as const;
  const numbers = ['NCPU', 'MemTotal'] as const;
  return Object.fromEntries([
    ...texts.filter((key) => typeof info[key] === 'string').map((key) => [key, info[key]]),
    ...numbers.filter((key) => typeof info[key] === 'number').map((key) => [key, info[key]]),
  ]) as ServerInfo;
}

export interface Report {
  tool: { name: 'shipshape'; version: string };
  target: {
    url: string;
    dialect: 'engine' | 'docker';
    kind: 'reference' | 'live';
    server?: ServerVersion;
    /** what GET /info said, when it answered */
    info?: ServerInfo;
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
  /** optional: present when the run did not run all its checks (Ctrl-C, SIGTERM, a target that went away); such a report is never a whole run's */
  cutShort?: CutShort;
  /** optional: `quick` when the run was `run --profile quick`, a sample of the suite that certifies nothing; absent for a full run */
  profile?: 'quick';
}

/** A run cut short: why, when, which checks were running then, and how many results it never got (each an `error` saying why). */
export interface CutShort {
  /** interrupted: SIGINT or SIGTERM reached the run; target-unreachable: the target stopped answering */
  reason: 'interrupted' | 'target-unreachable';
  /** ISO time: when the signal came, or the target's first failed answer */
  at: string;
  /** interrupted: the signal */
  signal?: 'SIGINT' | 'SIGTERM';
  /** target-unreachable: how the connection failed (e.g. `connect ECONNREFUSED /tmp/x.sock`) */
  cause?: string;
  /** the checks running at that moment, the one the message names first */
  running: { id: string; version: string }[];
  /** the check × version results the run did not get */
  notRun: number;
  /** the run's one line about it, e.g. `target unreachable since 14:02:11 (connect ECONNREFUSED /tmp/x.sock), during containers.logs.follow at 1.25` */
  message: string;
}
