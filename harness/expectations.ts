/**
 * `--expect FILE`: the checks known to fail on one live daemon, per version, each with a one-line
 * reason (fixtures/expectations/README.md). Judging a run against it turns a listed failure into
 * `expected-failure` and a listed pass into `unexpected-pass`, so the gate fails on any difference
 * between the file and reality: a change of behaviour is always a reviewed edit of the file.
 */
import fs from 'node:fs/promises';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { API_VERSIONS, appliesAt, compareVersions, CURRENT_VERSION, OLDEST_VERSION, type ApiVersion } from '../protocol/versions.ts';
import { failsGate } from './report/result-statuses.ts';
import type { CheckReport, Report, ResultStatus, VersionResult } from './report/types.ts';

export interface ExpectationEntry {
  /** as written: `1.24`, `1.18-1.23` or `*` */
  key: string;
  versions: ApiVersion[];
  reason: string;
}

export interface Expectations {
  /** the path as given, for messages that tell the user which file to edit */
  file: string;
  target: string;
  description?: string;
  /** by check id */
  entries: Map<string, ExpectationEntry[]>;
}

export interface GateFailure {
  check: string;
  version: string;
  status: ResultStatus;
  message?: string;
}

const SCHEMA = {
  type: 'object',
  description: 'must be an object: { "target", "description"?, "expected": { "<check id>": { "<version, range or *>": "reason" } } }',
  required: ['target', 'expected'],
  additionalProperties: false,
  properties: {
    target: { type: 'string', minLength: 1, description: 'must name the daemon, e.g. "docker-20.10"' },
    description: { type: 'string' },
    expected: {
      type: 'object',
      description: 'must map check ids to { "<version, range or *>": "reason" }',
      propertyNames: { $ref: '#/$defs/checkId' },
      additionalProperties: {
        type: 'object',
        minProperties: 1,
        description: 'must map versions to reasons, with at least one entry',
        propertyNames: { $ref: '#/$defs/versionKey' },
        additionalProperties: { $ref: '#/$defs/reason' },
      },
    },
  },
  $defs: {
    checkId: { type: 'string', pattern: '^[a-z0-9-]+(\\.[a-z0-9-]+)+$', description: 'is not a check id (dotted area.operation.case)' },
    versionKey: { type: 'string', pattern: '^(\\*|1\\.[0-9]+(-1\\.[0-9]+)?)$', description: 'is not a version (1.24), a range (1.18-1.23) or *' },
    reason: { type: 'string', pattern: '^[^\\n\\r]*\\S[^\\n\\r]*$', maxLength: 200, description: 'must be a one-line reason (at most 200 characters)' },
  },
} as const;

const validate = new Ajv2020({ allErrors: false, verbose: true }).compile(SCHEMA);

/** Reads and validates an expectations file; anything wrong with it is one line naming the file. */
export async function loadExpectations(file: string): Promise<Expectations> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`--expect ${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`--expect ${file}: not JSON (${(error as Error).message})`);
  }
  return parseExpectations(value, file);
}

export function parseExpectations(value: unknown, file: string): Expectations {
  const fail: (what: string) => never = (what) => {
    throw new Error(`--expect ${file}: ${what}`);
  };
  if (!validate(value)) fail(describeError(validate.errors?.[0]));
  const data = value as { target: string; description?: string; expected: Record<string, Record<string, string>> };
  const entries = new Map<string, ExpectationEntry[]>();
  for (const [checkId, byVersion] of Object.entries(data.expected)) {
    const list: ExpectationEntry[] = [];
    for (const [key, reason] of Object.entries(byVersion)) {
      const where = `expected["${checkId}"]["${key}"]`;
      const versions = versionsOf(key);
      if (versions === 'backwards') fail(`${where}: the range runs backwards`);
      if (versions.length === 0) fail(`${where}: names no version in ${OLDEST_VERSION}-${CURRENT_VERSION}`);
      for (const other of list) {
        const shared = other.versions.find((version) => versions.includes(version));
        if (shared) fail(`expected["${checkId}"]: "${other.key}" and "${key}" both cover ${shared}; each version needs one reason`);
      }
      list.push({ key, versions, reason });
    }
    entries.set(checkId, list);
  }
  return { file, target: data.target, ...(data.description === undefined ? {} : { description: data.description }), entries };
}

/**
 * Judges a run's results against the file. `selected` says which check ids the run meant to run
 * (`--only`): an entry for a check outside it is not judged, an entry for a selected id that no check
 * has is stale and a problem, as is an entry for versions where its check does not apply.
 */
export function applyExpectations(
  checks: CheckReport[],
  versions: string[],
  expectations: Expectations,
  options: { selected?: (id: string) => boolean } = {},
): { checks: CheckReport[]; problems: string[] } {
  const { file } = expectations;
  const selected = options.selected ?? (() => true);
  const byId = new Map(checks.map((check) => [check.id, check]));
  const problems: string[] = [];
  for (const [id, entries] of expectations.entries) {
    const check = byId.get(id);
    if (!check) {
      if (selected(id)) problems.push(`${file}: "${id}" is not a check (renamed or removed?): delete its entry`);
      continue;
    }
    for (const entry of entries) {
      if (!entry.versions.some((version) => appliesAt(version, check.since, check.until))) {
        const applies = check.until ? `${check.since}-${check.until}` : `${check.since} on`;
        problems.push(`${file}: "${id}" at "${entry.key}": the check applies at ${applies} only: narrow or delete the entry`);
      }
    }
  }
  const judged = checks.map((check) => {
    const entries = expectations.entries.get(check.id);
    if (!entries) return check;
    const results: Record<string, VersionResult> = {};
    for (const [version, result] of Object.entries(check.results)) {
      const entry = versions.includes(version) ? entries.find((candidate) => candidate.versions.some((covered) => covered === version)) : undefined;
      results[version] = entry ? judge(result, entry, check.id, file) : result;
    }
    return { ...check, results };
  });
  return { checks: judged, problems };
}

/** What fails the run's gate: failed, error and unexpected-pass results, by version then check id. */
/** How a log shows a result that fails the gate: one line, its message's first line cut at 300 characters. */
export function gateFailureLine(failure: GateFailure): string {
  const first = (failure.message ?? 'no message').split('\n')[0] ?? '';
  return `unexpected: ${failure.version} ${failure.check} (${failure.status}): ${first.length > 300 ? `${first.slice(0, 300)}…` : first}`;
}

export function gateFailures(report: Report): GateFailure[] {
  const failures: GateFailure[] = [];
  for (const version of [...report.versions].sort(compareVersions)) {
    for (const check of [...report.checks].sort((a, b) => a.id.localeCompare(b.id))) {
      const result = check.results[version];
      if (result && failsGate(result.status)) {
        failures.push({ check: check.id, version, status: result.status, ...(result.message === undefined ? {} : { message: result.message }) });
      }
    }
  }
  return failures;
}

function judge(result: VersionResult, entry: ExpectationEntry, id: string, file: string): VersionResult {
  switch (result.status) {
    case 'failed':
      return { ...result, status: 'expected-failure', reason: entry.reason };
    case 'passed':
      return {
        ...result,
        status: 'unexpected-pass',
        reason: entry.reason,
        message: `listed as expected to fail (${entry.reason}) but passed: remove it from ${file} (entry "${entry.key}" of ${id})`,
      };
    // An error says nothing about conformance, and a skip was not judged: both stay as they are.
    default:
      return result;
  }
}

/** The known versions a key covers, or 'backwards' for a range like 1.23-1.18. */
function versionsOf(key: string): ApiVersion[] | 'backwards' {
  if (key === '*') return [...API_VERSIONS];
  const [from = key, to = from] = key.split('-');
  if (compareVersions(from, to) > 0) return 'backwards';
  return API_VERSIONS.filter((version) => appliesAt(version, from, to));
}

function describeError(error: ErrorObject | undefined): string {
  if (!error) return 'does not match the expectations format';
  const path = error.instancePath.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  const where = path.length === 0 ? 'top level' : path.map((part, index) => (index === 0 ? part : `["${part}"]`)).join('');
  const described = (error.parentSchema as { description?: string } | undefined)?.description;
  if (error.propertyName !== undefined) return `${where}: "${error.propertyName}" ${described ?? error.message ?? 'is not allowed'}`;
  if (error.keyword === 'additionalProperties') return `${where}: unknown field "${String(error.params.additionalProperty)}" (target, description, expected)`;
  if (error.keyword === 'required') return `${where}: missing "${String(error.params.missingProperty)}"`;
  return `${where}: ${described ?? error.message ?? 'is invalid'}`;
}
