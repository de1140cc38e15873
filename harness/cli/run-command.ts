/**
 * `shipshape run`: prepare the target, run the checks at each version, judge them against
 * `--expect`, write the four report files, print a per-version summary. Exit 0 when every failure
 * was expected, 1 when anything failed or passed unexpectedly, 2 when the target or the arguments
 * are wrong.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CommandSpec } from './command-help.ts';
import { parseFlags } from './parse-flags.ts';
import { UsageError } from './usage-error.ts';
import { parseTarget } from '../target.ts';
import { parseDialect } from '../../protocol/dialect.ts';
import { PERSONALITY_NAMES, isPersonalityName, type PersonalityName } from '../../protocol/personality-names.ts';
import { compareVersions, parseVersionList, type ApiVersion } from '../../protocol/versions.ts';
import { readCheckList } from '../check-list.ts';
import { readInventory } from '../coverage/spec-inventory.ts';
import { REPO_ROOT } from '../repo-root.ts';
import { quickProfile } from '../run/quick-profile.ts';
import { Interrupted, prepareTarget } from '../run/prepare-target.ts';
import { DEFAULT_SERVICE, servicesFromFlags } from '../run/account-services.ts';
import { runSuite } from '../run/run-suite.ts';
import { RunInterruption, tellsOfTheCut } from '../run/cut-short.ts';
import { areasOf, globToRegExp, parseLevel } from '../run/check-filter.ts';
import { loadExpectations, applyExpectations, gateFailures } from '../expectations.ts';
import { summarize } from '../report/summarize.ts';
import { writeReports } from '../report/write-reports.ts';
import { formatSummaryTable } from '../run/console-summary.ts';
import type { Report } from '../report/types.ts';
import { readToolVersion } from './tool-version.ts';

export const RUN_COMMAND = {
  name: 'run',
  description: [
    'Checks a target at each API version and writes the reports. Exits 0 when every failure was expected (--expect), 1 when a check failed or passed unexpectedly, 2 when the target is unreachable or an argument is wrong. A target that stops answering mid-run ends it there: the rest is not run, the reports keep what ran (exit 2). Ctrl-C (or SIGTERM) stops the checks, removes what the run created, writes the reports of what ran and exits 130; a second Ctrl-C abandons at once.',
  ],
  flags: {
    target: {
      type: 'string', value: 'ADDR', defaultText: '$DOCKER_HOST when set, else reference',
      help: 'the daemon to check: reference (started in this process), unix:///PATH, tcp://HOST:PORT, https://HOST:PORT, or container:IMAGE (a daemon in a container the run starts on the Docker host)',
    },
    dialect: { type: 'string', value: 'engine|docker', default: 'engine', help: "the target's vendor names: engine (X-Engine-… headers, Buildfile) or docker (X-Docker-…, Dockerfile)" },
    personality: { type: 'string', value: 'dockerd|strict', defaultText: 'dockerd', help: "with the reference target: where the spec allows several answers, dockerd's (dockerd) or the other allowed one (strict); every spec-level check passes on both" },
    api: { type: 'string', value: 'VERSIONS', default: '1.18-1.25', help: 'the API versions to check: a range (1.18-1.25), a list (1.24,1.25), or both' },
    only: { type: 'string', value: 'GLOB', defaultText: 'every check', help: "the check ids to run: 'system.*' (one segment), 'system.**' (any), comma-separated" },
    profile: { type: 'string', value: 'full|quick', default: 'full', help: 'quick: about one check per endpoint and outcome class, at the newest version of --api, for a look in a minute; the report says so and certifies nothing' },
    /** spec | docker | all: the check level that runs and that the gate judges (DESIGN.md, Two levels) */
    level: { type: 'string', value: 'spec|docker|all', default: 'all', help: "the checks to run and judge: spec (what the spec says), docker (what dockerd does where the spec is silent), or both" },
    'report-dir': { type: 'string', value: 'DIR', default: 'reports/latest', help: 'where report.json, junit.xml, report.html, summary.md and allure-results/ are written (made if missing)' },
    expect: { type: 'string', value: 'FILE', defaultText: 'none: every failure fails the gate', help: 'the failures known on this target, per version, with reasons: a listed failure passes the gate, a new failure or a new pass fails it' },
    seed: { type: 'string', value: 'N', defaultText: 'random, printed at the start', help: 'the seed of the property checks; the report records it, so a failure reproduces with it' },
    'auth-url': { type: 'string', value: 'URL', defaultText: "the reference's own against the reference, else the token checks are skipped", help: 'a live token service (spec/3) for the token checks' },
    'accounts-url': { type: 'string', value: 'URL', defaultText: "the reference's own against the reference, else the accounts checks are skipped", help: 'a live accounts API (spec/3) for the accounts checks' },
    /** the service (registry) name tokens are asked for; spec/3's checks need one (issue 6), DESIGN.md's list does not name it */
    service: { type: 'string', value: 'NAME', defaultText: DEFAULT_SERVICE, help: 'the service (registry) name tokens are asked for' },
    user: { type: 'string', value: 'U', help: 'the user the token, accounts and registry checks act as on live services (with --password)' },
    password: { type: 'string', value: 'P', help: "--user's password" },
    /** HOST:PORT of a registry trusting the --auth-url token service, as the target reaches it: the registry checks' (issue 6), not in DESIGN.md's list */
    registry: {
      type: 'string', value: 'HOST:PORT', defaultText: "the reference's own against the reference, else the registry checks are skipped",
      help: 'a registry the target reaches that trusts the --auth-url token service and lets --user push to USER/*',
    },
    busybox: { type: 'string', value: 'PATH', default: '/bin/busybox', help: "the host's busybox binary, made into the fixture image where the target has no busybox:latest" },
    'tls-ca': { type: 'string', value: 'PEM', defaultText: '$DOCKER_CERT_PATH/ca.pem when there', help: "the CA that signed an https:// target's certificate" },
    'tls-cert': { type: 'string', value: 'PEM', defaultText: '$DOCKER_CERT_PATH/cert.pem when there', help: 'the client certificate for an https:// target' },
    'tls-key': { type: 'string', value: 'PEM', defaultText: '$DOCKER_CERT_PATH/key.pem when there', help: "the client certificate's key" },
    'tls-skip-verify': { type: 'boolean', default: false, help: "accept an https:// target's certificate unverified" },
    shard: { type: 'string', value: 'I/N', defaultText: 'the whole run', help: "run shard I of N (versions × suite files); shipshape merge joins the shards' report directories" },
    repeat: { type: 'string', value: 'N', default: '1', help: 'run each check N times (1-100): one whose attempts end differently is flaky and fails the gate' },
    /** with `--target container:IMAGE`: the TCP port the image's daemon listens on */
    'container-port': { type: 'string', value: 'N', default: '2375', help: "with --target container:IMAGE: the TCP port the image's daemon listens on" },
  },
  examples: [
    'shipshape run',
    "shipshape run --only 'system.**' --api 1.25",
    'shipshape run --profile quick --target unix:///var/run/docker.sock --dialect docker',
    'shipshape run --target unix:///var/run/docker.sock --dialect docker --expect expectations.json --report-dir reports/dockerd',
    'shipshape run --level spec --api 1.24,1.25 --shard 1/2 --report-dir reports/shard-1',
  ],
} as const satisfies CommandSpec;

function parsePort(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 65535) throw new UsageError(`--container-port: expected a port from 1 to 65535, got ${JSON.stringify(text)}`);
  return Number(text);
}

/** `--repeat N`: how many times each check runs, to tell a flaky check from a steady one. */
function parseRepeat(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 100) throw new UsageError(`--repeat: expected a whole number from 1 to 100, got ${JSON.stringify(text)}`);
  return Number(text);
}

/** `I/N`: this run is shard I of N (vitest's sharding of version × file); checked here so a typo is one clear line. */
function parseShard(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const [index, count] = [Number(match?.[1]), Number(match?.[2])];
  if (!match || index < 1 || index > count) throw new UsageError(`--shard: expected I/N with 1 <= I <= N, got ${JSON.stringify(text)}`);
  return `${index}/${count}`;
}

/** `--personality`: the reference's, so with the reference target only. */
function parsePersonality(text: string | undefined, targetKind: string): PersonalityName | undefined {
  if (text === undefined) return undefined;
  if (targetKind !== 'reference') throw new UsageError('--personality: only with the reference target (a live daemon has its own)');
  if (!isPersonalityName(text)) throw new UsageError(`--personality: expected ${PERSONALITY_NAMES.join(' or ')}, got ${JSON.stringify(text)}`);
  return text;
}

function parseProfile(text: string): 'full' | 'quick' {
  if (text !== 'full' && text !== 'quick') throw new UsageError(`--profile: expected full or quick, got ${JSON.stringify(text)}`);
  return text;
}

/** The quick profile at the newest version of those given: its ids, from the check list and the spec inventory. */
async function quickSelection(versions: ApiVersion[]): Promise<{ version: ApiVersion; ids: string[] }> {
  const version = [...versions].sort(compareVersions).at(-1)!;
  const [{ checks }, inventory] = await Promise.all([readCheckList(), readInventory(REPO_ROOT)]);
  return { version, ids: quickProfile(checks, inventory, version) };
}

/** Exactly these ids. */
function idMatcher(ids: string[]): RegExp {
  return new RegExp(`^(?:${ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`);
}

function parseSeed(text: string | undefined): number {
  if (text === undefined) return Math.floor(Math.random() * 2 ** 31);
  if (!/^-?\d+$/.test(text)) throw new UsageError(`--seed: expected an integer, got ${JSON.stringify(text)}`);
  return Number(text);
}

/**
 * `certify` runs through here too: its verdict is the certificate's, printed after, so the gate's
 * list of unexpected results and its line (a certify run has no expectations: every docker-level
 * failure would read as the gate failing) are left out.
 */
export async function runCommand(args: string[], purpose: 'run' | 'certify' = 'run'): Promise<number> {
  const { values } = parseFlags(args, RUN_COMMAND);
  const startedAt = new Date();
  const profile = parseProfile(values.profile);
  const quick = profile === 'quick' ? await quickSelection(parseVersionList(values.api)) : undefined;
  const versions = quick ? [quick.version] : parseVersionList(values.api);
  const dialect = parseDialect(values.dialect);
  const target = parseTarget(values.target, {
    ca: values['tls-ca'],
    cert: values['tls-cert'],
    key: values['tls-key'],
    skipVerify: values['tls-skip-verify'],
  });
  const personality = parsePersonality(values.personality, target.kind);
  const seed = parseSeed(values.seed);
  const shard = parseShard(values.shard);
  const repeat = parseRepeat(values.repeat);
  const expectations = values.expect ? await loadExpectations(values.expect) : undefined;
  // The quick profile's ids, narrowed further by --only when both are given.
  const given = values.only ? globToRegExp(values.only) : undefined;
  const only = quick ? idMatcher(quick.ids.filter((id) => given?.test(id) ?? true)) : given;
  const onlyAreas = quick ? areasOf(quick.ids.join(',')) : values.only ? areasOf(values.only) : undefined;
  const level = parseLevel(values.level);
  const reportDir = path.resolve(values['report-dir']);

  const accountServices = servicesFromFlags({ authUrl: values['auth-url'], accountsUrl: values['accounts-url'], service: values.service, user: values.user, password: values.password });
  if (values.registry !== undefined && !/^[a-zA-Z0-9.-]+(?::\d+)?$/.test(values.registry)) throw new UsageError(`--registry: expected HOST:PORT, got ${JSON.stringify(values.registry)}`);
  const containerPort = parsePort(values['container-port']);
  const write = (line: string) => process.stdout.write(`${line}\n`);

  // Ctrl-C stops the checks but not the clean-up: what the run created (objects on the target, a
  // container it started) is removed before exiting, and the reports keep what ran.
  const interrupt = new AbortController();
  // SIGTERM (a CI job cancelled) is treated as Ctrl-C: the target is cleaned up all the same. A second
  // signal of either kind abandons the run at once. One listener throughout: for the moment a signal
  // has none, Node leaves it to its default action, and a second Ctrl-C then killed the run unreported.
  const onInterrupt = (signal: NodeJS.Signals) => {
    if (interrupt.signal.aborted) process.exit(130);
    write('interrupted: stopping the checks and cleaning up the target; the reports keep what ran (Ctrl-C again to abandon)');
    interrupt.abort(new RunInterruption(signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT'));
  };
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
  const stopListening = () => {
    // an interrupted run stays abandonable to its end
    if (interrupt.signal.aborted) return;
    process.removeListener('SIGINT', onInterrupt);
    process.removeListener('SIGTERM', onInterrupt);
  };
  if (target.kind === 'container') write(`shipshape: starting ${target.image} on the Docker host and waiting for its daemon on port ${containerPort}`);
  let prepared;
  try {
    prepared = await prepareTarget({ target, dialect: dialect.name, personality, busyboxPath: values.busybox, seed, accountServices, registry: values.registry, containerPort, signal: interrupt.signal });
  } catch (error) {
    stopListening();
    if (error instanceof Interrupted) return 130;
    throw error;
  }
  prepared.session.repeat = repeat;
  write(`shipshape: ${prepared.session.target.url} (${dialect.name} dialect${prepared.server?.Version ? `, server ${prepared.server.Version} API ${prepared.server.ApiVersion}` : ''}) at ${versions.join(', ')}; seed ${seed}; fixture image ${prepared.session.fixtureImage}`);

  let suite;
  let leftovers: string[];
  try {
    const isExpected = (id: string, version: string) =>
      expectations?.entries.get(id)?.some((entry) => entry.versions.some((listed) => listed === version)) ?? false;
    const allureResultsDir = path.join(reportDir, 'allure-results');
    // Allure keeps every result file it finds: the last run's would mix with this one's.
    await fs.rm(allureResultsDir, { recursive: true, force: true });
    suite = await runSuite({ session: prepared.session, versions, only, level, onlyAreas, shard, write, signal: interrupt.signal, isExpected, allureResultsDir });
  } finally {
    stopListening();
    // A target that went away is not cleaned up: its clean-up would only fail the same way.
    leftovers = await prepared.close({ targetGone: suite?.cutShort?.reason === 'target-unreachable' });
  }
  const { cutShort } = suite;
  // Ctrl-C before any check reported: nothing to keep, and the last run's reports stay as they were.
  if (interrupt.signal.aborted && suite.reported === 0) {
    write(`interrupted before any check ended: no report written (what ${path.relative(process.cwd(), reportDir) || '.'} holds is left as it was)`);
    return 130;
  }

  // A shard holds some checks only, and --level the checks of one level: an entry for a check outside
  // them is not this run's to judge.
  const ran = new Set(suite.checks.map((check) => check.id));
  const selected = (id: string) => (only?.test(id) ?? true) && ((shard === undefined && level === 'all') || ran.has(id));
  const judged = expectations ? applyExpectations(suite.checks, versions, expectations, { selected }) : { checks: suite.checks, problems: [] };
  const finishedAt = new Date();
  const report: Report = {
    tool: { name: 'shipshape', version: await readToolVersion() },
    target: {
      url: prepared.session.target.url,
      dialect: dialect.name,
      kind: prepared.session.target.kind,
      ...(prepared.server ? { server: pickServer(prepared.server) } : {}),
      ...(prepared.info ? { info: prepared.info } : {}),
      ...(values['auth-url'] ? { authUrl: values['auth-url'] } : {}),
      ...(values['accounts-url'] ? { accountsUrl: values['accounts-url'] } : {}),
    },
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    seed,
    versions,
    checks: judged.checks,
    summary: summarize(judged.checks, versions),
    // A shard's report carries the whole run's selection: merge tells by it a result no shard holds.
    ...(shard && { shard, selection: suite.selection }),
    timing: suite.timing,
    // A report without it is a whole run's: `verify` refuses one with it.
    ...(cutShort && { cutShort }),
    ...(quick && { profile: 'quick' as const }),
  };
  const written = await writeReports(report, reportDir);

  write('');
  write(formatSummaryTable(report));
  // A flaky check fails the gate even where its failure is expected: its outcome cannot be relied on.
  const flaky = report.checks.flatMap((check) => Object.entries(check.results).filter(([, result]) => result.flaky).map(([version, result]) => `flaky: ${check.id} at ${version}: attempts ${result.attempts?.join(', ') ?? '?'}`));
  for (const problem of [...judged.problems, ...suite.runErrors, ...leftovers, ...flaky]) write(`problem: ${problem}`);
  // The results a run cut short did not get, or cut off, are told once, by the line that said why, not one by one.
  const gate = gateFailures(report).filter((failure) => !(cutShort && tellsOfTheCut(failure.message)));
  // Repeated at the end, where a long run's log is read (CI shows its tail): progress printed them long before.
  for (const failure of purpose === 'run' ? gate.slice(0, UNEXPECTED_LISTED) : []) {
    write(`unexpected: ${failure.version} ${failure.check} (${failure.status}): ${oneLine(failure.message ?? 'no message')}`);
  }
  if (purpose === 'run' && gate.length > UNEXPECTED_LISTED) write(`unexpected: … and ${gate.length - UNEXPECTED_LISTED} more in report.json`);
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  write(`time: ${seconds(report.durationMs)} in all, ${seconds(suite.timing.suiteWallMs)} running checks; summed over checks ${seconds(suite.timing.checkMs)}, of which ${seconds(suite.timing.targetMs)} waiting on the target`);
  write(`reports: ${written.map((file: string) => path.relative(process.cwd(), file) || file).join(', ')}`);
  if (suite.checks.length === 0) write(level === 'all' ? 'no check ran: is --only right?' : 'no check ran: are --only and --level right?');
  const failing = gate.length + judged.problems.length + suite.runErrors.length + leftovers.length + flaky.length;
  // The plain closing line CI systems read: expected failures count as skipped, not as failed.
  const totals = { passed: 0, failed: 0, skipped: 0 };
  for (const summary of Object.values(report.summary)) {
    totals.passed += summary.passed - (summary.unexpectedPasses ?? 0);
    totals.failed += summary.failed + summary.error + (summary.unexpectedPasses ?? 0);
    totals.skipped += summary.skipped + (summary.expectedFailures ?? 0);
  }
  write(`checks: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  if (cutShort) {
    write(`gate: FAILED — the run was cut short (${cutShort.signal ?? 'the target stopped answering'}): ${cutShort.notRun} result(s) not run`);
    return cutShort.reason === 'interrupted' ? 130 : 2;
  }
  if (purpose === 'run') write(failing === 0 ? `gate: passed (${(report.durationMs / 1000).toFixed(1)} s)` : `gate: FAILED — ${failing} unexpected result(s)${expectations ? '' : ' (no --expect file given)'}`);
  // a signal as the last check reported: the run is whole, and exits as interrupted all the same
  if (interrupt.signal.aborted) return 130;
  return failing === 0 && suite.checks.length > 0 ? 0 : 1;
}

const UNEXPECTED_LISTED = 20;

function oneLine(message: string): string {
  const first = message.split('\n')[0] ?? '';
  return first.length > 300 ? `${first.slice(0, 300)}…` : first;
}

function pickServer(server: NonNullable<Report['target']['server']>): NonNullable<Report['target']['server']> {
  const { Version, ApiVersion, MinAPIVersion, Os, Arch } = server;
  return Object.fromEntries(Object.entries({ Version, ApiVersion, MinAPIVersion, Os, Arch }).filter(([, v]) => typeof v === 'string'));
}

