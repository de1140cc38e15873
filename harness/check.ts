/**
 * `check(id, meta, fn)`: a check is declared once, with its metadata, and vitest runs it once per API
 * version (one vitest project per version). Outside `since`/`until`, or without a capability it
 * requires, it is skipped with the reason. The wrapper gives the check a client bound to the version,
 * a resource tracker, and turns what went wrong into `failed` (the target does not conform) or
 * `error` (the check could not run), with the request that showed it.
 */
import * as allure from 'allure-js-commons';
import { expect as vitestExpect, inject, test, type ExpectStatic } from 'vitest';
import { appliesAt, type ApiVersion } from '../protocol/versions.ts';
import { DIALECTS, type Dialect } from '../protocol/dialect.ts';
import { EngineClient } from './client/engine-client.ts';
import { connectionDispatcher } from './client/shared-dispatcher.ts';
import { describeExchange, exchangeVersion, NonConformingResponse, type ExchangeRecord } from './client/api-response.ts';
import { ResourceTracker } from './resources.ts';
import { FrameError } from '../protocol/stream-types.ts';
import { SESSION_ENV, type RunSession } from './session.ts';

export type CheckTag = 'schema' | 'state' | 'stream' | 'property' | 'error' | 'version';

/** spec: every assertion follows from the spec passage named; docker: what dockerd does where the spec is silent (DESIGN.md, Two levels) */
export type CheckLevel = 'spec' | 'docker';

export interface CheckMeta {
  /** one line: the rule the check asserts */
  title: string;
  /** seed document and section, e.g. '1 §4.4' */
  spec: string;
  /**
   * spec-level: the sentences every assertion rests on, each verbatim from a passage `spec` names (a
   * table row, a rule, a field line); reports show them under a failure. Docker-level checks may omit it.
   */
  quote?: string[];
  /** default spec */
  level?: CheckLevel;
  /** for a docker-level check: the dockerd build its behaviour was seen on, e.g. 'dockerd 20.10.24' */
  seen?: string;
  since: ApiVersion;
  /** last version the behaviour applies to, for removed behaviour */
  until?: ApiVersion;
  tags: CheckTag[];
  requires?: string[];
  /** a deadline under a minute; default 30 s */
  timeoutMs?: number;
  /** ids of fixtures/spec-inventory.json the check asserts (`shipshape coverage` maps them) */
  covers?: string[];
}

export interface CheckDescriptor extends CheckMeta {
  id: string;
  area: string;
  level: CheckLevel;
}

export type Outcome = 'failed' | 'error';

export interface CheckContext {
  engine: EngineClient;
  version: ApiVersion;
  expect: ExpectStatic;
  make: ResourceTracker;
  session: RunSession;
  dialect: Dialect;
}

/** How a run's repeated attempts of one check went (`run --repeat N`). */
export type AttemptOutcome = 'passed' | Outcome;

declare module 'vitest' {
  interface TaskMeta {
    /** with `run --repeat N`: the outcome of each attempt, in order */
    attempts?: AttemptOutcome[];
    check?: CheckDescriptor;
    /** set by the wrapper when the check threw; a timeout leaves it unset, which reads as error */
    outcome?: Outcome;
    skipReason?: string;
    /** summed round trips of the check's requests: how long it waited on the target */
    targetMs?: number;
    /** the last requests of the first attempt that did not pass, with what came back: the report's failure details */
    exchanges?: ExchangeRecord[];
  }
}

const CHECK_ID = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/;

/** `run --repeat N`, read from the session the CLI hands the workers; 1 outside a run (`shipshape list`, plain vitest). */
const RUN_REPEATS = ((): number => {
  const text = process.env[SESSION_ENV];
  return text ? Math.max(1, (JSON.parse(text) as RunSession).repeat ?? 1) : 1;
})();
const DEFAULT_TIMEOUT_MS = 30_000;
/** how many of the last requests a failure message quotes */
const QUOTED_EXCHANGES = 2;
/** How many of a failing attempt's last requests the report keeps, each with its answer and a command that sends it again. */
const REPORTED_EXCHANGES = 5;

/** Assertion failures and answers that break the protocol (bodies, framing) are the target's fault; anything else is the check's. */
export function outcomeOf(error: unknown): Outcome {
  if (error instanceof NonConformingResponse || error instanceof FrameError) return 'failed';
  const name = (error as { name?: string } | undefined)?.name;
  return name === 'AssertionError' ? 'failed' : 'error';
}

export function check(id: string, meta: CheckMeta, fn: (context: CheckContext) => Promise<void>): void {
  if (!CHECK_ID.test(id)) throw new Error(`check id ${JSON.stringify(id)} is not dotted area.operation.case`);
  const descriptor: CheckDescriptor = { id, area: id.split('.')[0] ?? id, ...meta, level: meta.level ?? 'spec' };
  const repeats = RUN_REPEATS;
  // Each attempt has the check's whole deadline.
  const timeout = (meta.timeoutMs ?? DEFAULT_TIMEOUT_MS) * repeats;

  test(id, { meta: { check: descriptor }, timeout }, async (testContext) => {
    const version = inject('apiVersion') as ApiVersion;
    const session = inject('session');
    // Allure's grouping: the area as feature, the check as story, each version and target a run of it.
    await allure.feature(descriptor.area);
    await allure.story(id);
    await allure.label('level', descriptor.level);
    if (descriptor.quote?.length) await allure.description(quoteLines(descriptor).join('\n'));
    await allure.parameter('API version', version);
    await allure.parameter('target', session.target.url);
    const skip = (reason: string): never => {
      testContext.task.meta.skipReason = reason;
      return testContext.skip(reason);
    };
    if (!appliesAt(version, meta.since, meta.until)) {
      skip(meta.until ? `applies to ${meta.since}–${meta.until} only` : `applies from ${meta.since} on`);
    }
    const missing = (meta.requires ?? []).filter((need) => !session.capabilities.includes(need));
    if (missing.length > 0) skip(`the target lacks ${missing.join(', ')}`);

    const outcomes: AttemptOutcome[] = [];
    let firstFailure: unknown;
    let targetMs = 0;
    for (let attempt = 0; attempt < repeats; attempt++) {
      const run = await attemptCheck(fn, { version, session, expect: testContext.expect ?? vitestExpect, descriptor });
      targetMs += run.targetMs;
      outcomes.push(run.failure === undefined ? 'passed' : outcomeOf(run.failure));
      if (firstFailure === undefined && run.failure !== undefined) {
        firstFailure = run.failure;
        testContext.task.meta.outcome = outcomeOf(run.failure);
        testContext.task.meta.exchanges = run.exchanges;
      }
    }
    testContext.task.meta.targetMs = targetMs;
    if (repeats > 1) testContext.task.meta.attempts = outcomes;
    if (firstFailure !== undefined) throw firstFailure;
  });
}

/** Leftovers are the check's fault as a setup error, so a clean-up that fails makes the attempt an `error`. */
class CleanupLeftovers extends Error {}

/** A request off the version under test that does not say why: the verdict may rest on another version's behaviour, so the attempt is an `error`. */
class OffVersionRequest extends Error {}

/**
 * The requests of a check that went at another version than `version` (or none) without a reason:
 * only clean-up, probes of the target and checks about version prefixes may, each saying so.
 */
export function offVersionExchanges(exchanges: readonly ExchangeRecord[], version: ApiVersion): ExchangeRecord[] {
  return exchanges.filter((exchange) => exchange.offVersion === undefined && exchangeVersion(exchange) !== version);
}

/**
 * The spec sentences a failure is said to break, one line each (`spec/1 §4.1: "…"`), so that an
 * implementer reads the text, not our reading of it.
 */
export function quoteLines(check: Pick<CheckDescriptor, 'spec' | 'quote'>): string[] {
  return (check.quote ?? []).map((sentence) => `spec/${check.spec}: ${JSON.stringify(sentence)}`);
}

/**
 * One run of a check body with a client and resource tracker of its own, then its clean-up. Returns
 * what went wrong (with the spec sentences it breaks and the last requests quoted), or nothing.
 */
async function attemptCheck(
  fn: (context: CheckContext) => Promise<void>,
  { version, session, expect, descriptor }: { version: ApiVersion; session: RunSession; expect: ExpectStatic; descriptor: CheckDescriptor },
): Promise<{ failure?: unknown; targetMs: number; exchanges: ExchangeRecord[] }> {
  const engine = new EngineClient(session.target.connection, connectionDispatcher(session.target.connection), version);
  const make = new ResourceTracker(engine, session.runId);
  let failure: unknown;
  // The requests up to the failure: the clean-up's come after it and are not what showed it.
  let shown = 0;
  try {
    await fn({ engine, version, expect, make, session, dialect: DIALECTS[session.dialect] });
    const stray = offVersionExchanges(engine.exchanges, version);
    if (stray.length > 0) {
      throw new OffVersionRequest(`requests off the version under test (${version}) that do not say why:\n${stray.map((exchange) => `  ${describeExchange(exchange)}`).join('\n')}`);
    }
  } catch (error) {
    failure = error;
    shown = engine.exchanges.length;
    if (engine.exchanges.length > 0) {
      await allure.attachment('requests and responses', engine.exchanges.map(describeExchange).join('\n'), { contentType: 'text/plain' });
    }
    if (error instanceof Error) {
      // The sentences under a failure of the target's, not under a check that could not run.
      const sentences = outcomeOf(error) === 'failed' ? quoteLines(descriptor) : [];
      const quoted = engine.exchanges.slice(-QUOTED_EXCHANGES).map((exchange) => `  ${describeExchange(exchange)}`);
      const requests = quoted.length > 0 ? [`request${quoted.length > 1 ? 's' : ''}:`, ...quoted] : [];
      error.message = [error.message, ...sentences, ...requests].join('\n');
    }
  }
  const leftovers = await make.cleanup();
  if (failure === undefined && leftovers.length > 0) {
    failure = new CleanupLeftovers(`cleanup left behind: ${leftovers.join('; ')}`);
    shown = engine.exchanges.length;
  }
  return {
    failure,
    targetMs: engine.exchanges.reduce((sum, exchange) => sum + (exchange.elapsedMs ?? 0), 0),
    exchanges: engine.exchanges.slice(Math.max(0, shown - REPORTED_EXCHANGES), shown).map(({ elapsedMs: _elapsed, ...kept }) => kept),
  };
}
