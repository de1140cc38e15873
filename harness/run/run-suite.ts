/**
 * Runs the version projects through vitest's Node API and returns what the collector gathered.
 * The target is already prepared: the session travels to the workers in the environment.
 */
import path from 'node:path';
import { REPO_ROOT } from '../repo-root.ts';
import AllureVitestReporter from 'allure-vitest/reporter';
import { createVitest, type TestCase } from 'vitest/node';
import { SESSION_ENV, type RunSession } from '../session.ts';
import { CURRENT_VERSION } from '../../protocol/versions.ts';
import type { CheckDescriptor } from '../check.ts';
import { ResultCollector, VERSION_PROJECT_PREFIX, type OwedResults } from './result-collector.ts';
import { liveTerminal, ProgressReporter } from './progress-reporter.ts';
import { COLLECT_ONLY_ENV } from './global-setup.ts';
import { relativeFile, shardShare, specKey, VersionFileSequencer } from './version-file-shards.ts';
import { levelPattern, type LevelChoice } from './check-filter.ts';
import type { CheckReport, CutShort } from '../report/types.ts';
import { TargetWatch, showsConnectionFailure, type TargetLoss } from './target-watch.ts';
import { interruptedCut, NOT_RUN_INTERRUPTED, RunInterruption, targetLostCut, type StopSignal } from './cut-short.ts';

/** workers against a live target: enough to keep all eight versions in flight */
const LIVE_WORKERS = 8;
/**
 * against the in-process reference on 2 cores. With the system suite alone (CPU-bound): 1 worker
 * 24.5 s, 4 workers 11.5 s, 8 workers 18.1 s. With the containers, exec, streams and archive suites,
 * whose checks mostly wait on stop timeouts, restart back-off and stats intervals: 4 workers 45.9 s,
 * 8 workers 31.4 s, 12 workers 36.6 s.
 */
const REFERENCE_WORKERS = 8;

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const satisfies readonly StopSignal[];

export interface SuiteRun {
  checks: CheckReport[];
  runErrors: string[];
  timing: RunTiming;
  /** the ids of the checks the whole run selected, every shard's included, sorted */
  selection: string[];
  /** when the run stopped before its end (Ctrl-C, SIGTERM, the target gone): why, and what it did not run */
  cutShort?: CutShort;
  /** the check × version results that came from checks (not made up for a check that did not report) */
  reported: number;
}

/** Where a run's time goes: the bench README quotes these. Check times are summed, so they overlap. */
export interface RunTiming {
  /** wall time of the vitest run, start-up included */
  suiteWallMs: number;
  checkMs: number;
  targetMs: number;
}

/** A suite file and the checks it declares: every version project declares the same ones. */
export interface SuiteFile {
  /** relative to the repository, forward slashes */
  file: string;
  moduleId: string;
  checks: CheckDescriptor[];
}

/**
 * The suite files of `areas` (every area when undefined) and their checks, collected by vitest without
 * running any: what `shipshape list` shows and a run owes results for. A file that does not load, or a
 * check outside its area's folder (which `run --only` would never load), is refused.
 */
export async function collectSuite(areas?: string[]): Promise<SuiteFile[]> {
  const outside = process.env[COLLECT_ONLY_ENV];
  process.env[COLLECT_ONLY_ENV] = '1';
  const vitest = await createVitest(
    'test',
    { root: REPO_ROOT, config: path.join(REPO_ROOT, 'vitest.config.ts'), project: `${VERSION_PROJECT_PREFIX}${CURRENT_VERSION}`, watch: false },
    { logLevel: 'error' },
  );
  try {
    const { testModules } = await vitest.collect(areas?.map((area) => `suites/${area}/`));
    return testModules
      .map((module) => {
        const file = relativeFile(REPO_ROOT, module.moduleId);
        const [loadError] = module.errors();
        if (loadError) throw new Error(`${file} does not load: ${loadError.message}`);
        const checks = [...module.children.allTests()].flatMap((testCase) => testCase.meta().check ?? []);
        const folder = file.split('/')[1];
        const stray = checks.find((check) => check.area !== folder);
        if (stray) throw new Error(`check ${stray.id} is in ${file}: a check's area (its id's first segment) must be its folder's name`);
        return { file, moduleId: module.moduleId, checks };
      })
      .sort((a, b) => a.file.localeCompare(b.file));
  } finally {
    await vitest.close();
    // A run collects before its own vitest starts, whose global setup must then prepare the session.
    if (outside === undefined) delete process.env[COLLECT_ONLY_ENV];
    else process.env[COLLECT_ONLY_ENV] = outside;
  }
}

/**
 * What a run (or its shard) owes a result for: each selected check of each suite file, at each
 * version, of the (version, file) pairs the shard holds. The same split as VersionFileSequencer's.
 */
export function owedResults(suite: readonly SuiteFile[], versions: readonly string[], selected: (id: string) => boolean, shard?: string): OwedResults[] {
  const pairs = versions.flatMap((version) => suite.map((file) => ({ version, file, key: specKey(`${VERSION_PROJECT_PREFIX}${version}`, file.file) })));
  const [index, count] = (shard ?? '1/1').split('/').map(Number) as [number, number];
  const share = shardShare(pairs.map(({ key }) => key), index, count);
  return pairs
    .filter(({ key }) => share.has(key))
    .map(({ version, file }) => ({ version, file: file.file, moduleId: file.moduleId, checks: file.checks.filter((check) => selected(check.id)) }));
}

export async function runSuite(options: {
  session: RunSession;
  versions: string[];
  only?: RegExp;
  /** `--level`: the check level to run, with `only`; all by default */
  level?: LevelChoice;
  /** the suite folders `only` can match (check-filter's areasOf): the others are not even loaded */
  onlyAreas?: string[];
  /** `I/N`: run only vitest's shard I of N */
  shard?: string;
  /** where allure-vitest writes its results (`npm run report:allure` renders them) */
  allureResultsDir: string;
  write: (line: string) => void;
  /** Ctrl-C: cancel the run, the rest of it not run; the caller then cleans the target up. Its reason, a RunInterruption, names the signal */
  signal?: AbortSignal;
  isExpected?: (id: string, version: string) => boolean;
}): Promise<SuiteRun> {
  // The ledger, collected before anything runs: a result missing at the end is then an error, never a gap.
  const suite = await collectSuite(options.onlyAreas);
  const pattern = levelPattern(suite.flatMap((file) => file.checks), options.level ?? 'all', options.only);
  const selected = (id: string) => pattern?.test(id) ?? true;
  const owed = owedResults(suite, options.versions, selected, options.shard);
  process.env[SESSION_ENV] = JSON.stringify(options.session);
  const collector = new ResultCollector(selected);
  const startedAt = performance.now();
  // The embedded reference lives in this process and cannot go away without it; a live target can.
  const live = options.session.target.kind === 'live';
  // Against a live target, a failure to connect is shown once the target is known to answer: a target gone fails every check alike, and says so once.
  const progress = new ProgressReporter(options.write, REPO_ROOT, options.isExpected ?? (() => false), owed, liveTerminal(), live ? showsConnectionFailure : undefined);
  // vitest forgets a cancel that comes before its test run begins (the run clears it as it starts),
  // and Ctrl-C while a live target is prepared and the files collected came then: lost, the whole run
  // went on. A test file that starts after the cut cancels again.
  const cancel = () => void vitest.cancelCurrentRun('keyboard-input');
  let cut: { cut: Omit<CutShort, 'notRun'>; notRunMessage: string } | undefined;
  const cancelIfCut = () => {
    if (cut) cancel();
  };
  /** Stops the run once: what it has so far is kept, and the checks it stops are not run, not skipped. */
  const cutShort = (how: NonNullable<typeof cut>) => {
    if (cut) return;
    cut = how;
    collector.markCut();
    progress.quieten();
    cancel();
  };
  const interrupted = () => {
    const reason: unknown = options.signal?.reason;
    cutShort({ cut: interruptedCut(reason instanceof RunInterruption ? reason : new RunInterruption('SIGINT'), collector.running(), collector.lastFinished), notRunMessage: NOT_RUN_INTERRUPTED });
  };
  let targetLoss: TargetLoss | undefined;
  const targetLost = (loss: TargetLoss) => {
    if (cut) return;
    const lost = targetLostCut(loss, collector.lastFinished);
    targetLoss = loss;
    cutShort(lost);
    options.write(`${lost.cut.message}: the remaining checks are not run`);
  };
  const watch = live ? new TargetWatch(options.session.target.connection, { running: () => collector.running(), onLost: targetLost, onAnswer: () => progress.release() }) : undefined;
  const suspectTarget = (testCase: TestCase) => {
    const id = testCase.meta().check?.id;
    const result = testCase.result();
    if (id === undefined || result.state !== 'failed' || !result.errors.some((error) => showsConnectionFailure(error.message))) return;
    watch?.suspect({ id, version: testCase.project.name.slice(VERSION_PROJECT_PREFIX.length) });
  };
  const ownListeners = Object.fromEntries(STOP_SIGNALS.map((name) => [name, process.listeners(name)])) as Record<StopSignal, NodeJS.SignalsListener[]>;
  const vitest = await createVitest(
    'test',
    {
      root: REPO_ROOT,
      config: path.join(REPO_ROOT, 'vitest.config.ts'),
      project: options.versions.map((version) => `${VERSION_PROJECT_PREFIX}${version}`),
      testNamePattern: pattern,
      watch: false,
      passWithNoTests: true,
      ...(options.shard && { shard: options.shard, sequence: { sequencer: VersionFileSequencer } }),
      // Checks mostly wait (stop timeouts, a live daemon's work): versions side by side finish sooner.
      // The in-process reference shares the cores with the workers, so it gets fewer (bench/README.md).
      maxWorkers: options.session.target.kind === 'live' ? LIVE_WORKERS : REFERENCE_WORKERS,
      reporters: [collector, progress, new AllureVitestReporter({ resultsDir: options.allureResultsDir }), { onTestModuleStart: cancelIfCut, onTestCaseResult: suspectTarget }],
    },
    { logLevel: 'error' },
  );
  // vitest's logger exits the process at SIGINT or SIGTERM, as its own CLI wants; a run must first take
  // what it made off the target, which the caller's handler (`signal`) sees to.
  for (const name of STOP_SIGNALS) {
    for (const listener of process.listeners(name)) if (!ownListeners[name].includes(listener)) process.off(name, listener);
  }
  if (options.signal?.aborted) interrupted();
  else options.signal?.addEventListener('abort', interrupted, { once: true });
  watch?.start();
  try {
    if (!cut) await vitest.start(options.onlyAreas?.map((area) => `suites/${area}/`));
    if (!cut) await watch?.settle();
  } finally {
    options.signal?.removeEventListener('abort', interrupted);
    await watch?.stop();
    await vitest.close();
  }
  // failures held back for a ping that the run ended before
  if (!cut) progress.release();
  const afterLoss = targetLoss && cut ? collector.afterTargetLost(targetLoss, cut.notRunMessage, showsConnectionFailure) : 0;
  const reported = collector.reported - afterLoss;
  const notRun = collector.recordMissing(owed, cut?.notRunMessage) + afterLoss;
  return {
    checks: collector.results(),
    runErrors: collector.runErrors,
    timing: { suiteWallMs: performance.now() - startedAt, ...collector.timing },
    selection: suite.flatMap((file) => file.checks.filter((check) => selected(check.id)).map((check) => check.id)).sort(),
    ...(cut && { cutShort: { ...cut.cut, notRun } }),
    reported,
  };
}
