/**
 * Scores a suite by the mutants of ./catalogue.ts:
 *
 *   node --import tsx bench/mutation/run-mutants.ts [--suite DIR] [--only-mutants a,b] [--out FILE]
 *
 * For each selected mutant: a fresh reference (`shipshape serve`, engine + token service + accounts
 * API, started from this checkout, so every mutant starts from the same empty state), three proxies
 * in front of it with the mutant injected into its service, and one `node <SUITE>/bin/shipshape.js run`
 * through them with the mutant's --only glob and --api versions. Before the mutants, each distinct
 * (glob, versions, services) is run once through plain pass-through proxies: its failures are the
 * baseline, subtracted from the mutants' failures. A mutant is killed when some check fails (or errs)
 * under it that did not fail in its baseline. Writes FILE (JSON) and FILE with .md (a table).
 * Runs are sequential (one suite run at a time).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { catalogue, PRIORITY } from './catalogue.ts';
import { startProxy } from './proxy.ts';
import type { Mutant, MutatingProxy, Service } from './proxy.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../..');
const USER = { username: 'alice', password: 'shipshape-alice-Tq7vRw2pLx' }; // fixtures/users/users.json's first user
const RUN_TIMEOUT_MS = 8 * 60_000;

/** the children running now (the reference, the suite run): stopped with this process */
const children = new Set<ChildProcess>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill('SIGTERM');
    process.exit(130);
  });
}
function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

interface Reference {
  engine: { host: string; port: number };
  token: { host: string; port: number };
  accounts: { host: string; port: number };
  child: ChildProcess;
}

function hostPort(url: string): { host: string; port: number } {
  const u = new URL(url.replace(/^tcp:/, 'http:'));
  return { host: u.hostname, port: Number(u.port) };
}

async function startReference(): Promise<Reference> {
  const child = track(spawn(process.execPath, [path.join(REPO, 'bin/shipshape.js'), 'serve', '--engine', 'tcp://127.0.0.1:0', '--token', 'tcp://127.0.0.1:0', '--accounts', 'tcp://127.0.0.1:0'], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  }));
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGTERM'); reject(new Error(`serve did not start: ${out}`)); }, 60_000);
    child.stderr?.on('data', (d: Buffer) => { out += d.toString(); });
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const engine = /^engine: (\S+)/m.exec(out)?.[1];
      const token = /^token: (\S+)/m.exec(out)?.[1];
      const accounts = /^accounts: (\S+)/m.exec(out)?.[1];
      if (engine && token && accounts) {
        clearTimeout(timer);
        resolve({ engine: hostPort(engine), token: hostPort(token), accounts: hostPort(accounts), child });
      }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`serve exited ${code}: ${out}`)); });
  });
}

async function stopReference(ref: Reference): Promise<void> {
  if (ref.child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => ref.child.once('exit', () => resolve()));
  ref.child.kill('SIGTERM');
  const timer = setTimeout(() => ref.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

interface RunOutcome {
  /** `checkId@version` of every failed or erred result */
  failures: Set<string>;
  durationMs: number;
  exitCode: number | null;
  timedOut: boolean;
  note?: string;
}

interface ReportJson {
  checks: { id: string; results: Record<string, { status: string }> }[];
}

async function runSuite(suite: string, mutant: Mutant | undefined, only: string, api: string, services: Service[]): Promise<RunOutcome> {
  const started = Date.now();
  const ref = await startReference();
  const proxies: MutatingProxy[] = [];
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mutant-'));
  try {
    const engine = await startProxy({ upstream: ref.engine, service: 'engine', ...(mutant ? { mutant } : {}) });
    proxies.push(engine);
    const args = [path.join(suite, 'bin/shipshape.js'), 'run', '--target', `tcp://127.0.0.1:${engine.port}`, '--only', only, '--api', api, '--report-dir', dir, '--seed', '1'];
    if (services.includes('token') || services.includes('accounts')) {
      const token = await startProxy({ upstream: ref.token, service: 'token', ...(mutant ? { mutant } : {}) });
      const accounts = await startProxy({ upstream: ref.accounts, service: 'accounts', ...(mutant ? { mutant } : {}) });
      proxies.push(token, accounts);
      args.push('--auth-url', token.url, '--accounts-url', accounts.url, '--user', USER.username, '--password', USER.password);
    }
    const child = track(spawn(process.execPath, args, { cwd: suite, stdio: ['ignore', 'pipe', 'pipe'] }));
    let log = '';
    child.stdout?.on('data', (d: Buffer) => { log += d.toString(); });
    child.stderr?.on('data', (d: Buffer) => { log += d.toString(); });
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGINT'); setTimeout(() => child.kill('SIGKILL'), 20_000).unref(); }, RUN_TIMEOUT_MS);
    const exitCode = await new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    clearTimeout(timer);
    const failures = new Set<string>();
    let note: string | undefined;
    try {
      const report = JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as ReportJson;
      for (const check of report.checks) {
        for (const [version, result] of Object.entries(check.results)) {
          if (result.status === 'failed' || result.status === 'error') failures.add(`${check.id}@${version}`);
        }
      }
    } catch (error) {
      note = `no report.json (exit ${exitCode}): ${String(error).slice(0, 200)}; log tail: ${log.slice(-400)}`;
    }
    return { failures, durationMs: Date.now() - started, exitCode, timedOut, ...(note ? { note } : {}) };
  } finally {
    for (const p of proxies) await p.close();
    await stopReference(ref);
    await rm(dir, { recursive: true, force: true });
  }
}

interface MutantResult {
  id: string;
  passage: string;
  quote: string;
  bug: string;
  only: string;
  api: string;
  killedBy: string[];
  /** `checkId@version` of the killing results */
  killedAt: string[];
  survived: boolean;
  durationMs: number;
  timedOut: boolean;
  note?: string;
}

function servicesOf(mutant: Mutant): Service[] {
  return mutant.service === 'engine' ? ['engine'] : ['engine', 'token', 'accounts'];
}

function baselineKey(mutant: Mutant): string {
  return `${mutant.only}|${mutant.api}|${servicesOf(mutant).join('+')}`;
}

function markdown(results: MutantResult[], suite: string): string {
  const killed = results.filter((r) => !r.survived).length;
  const lines = [
    `Mutation score of ${suite}: ${killed}/${results.length} killed`,
    '',
    '| mutant | passage | --only / --api | killed by | time |',
    '|---|---|---|---|---|',
  ];
  for (const r of results) {
    const by = r.survived ? '**survived**' : r.killedBy.slice(0, 4).join(', ') + (r.killedBy.length > 4 ? ` (+${r.killedBy.length - 4})` : '');
    lines.push(`| ${r.id} | ${r.passage} | \`${r.only}\` / ${r.api} | ${by} | ${(r.durationMs / 1000).toFixed(0)} s |`);
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      suite: { type: 'string', default: REPO },
      'only-mutants': { type: 'string' },
      out: { type: 'string', default: path.join(HERE, 'results.json') },
      resume: { type: 'boolean', default: false },
    },
  });
  const suite = path.resolve(values.suite ?? REPO);
  const out = path.resolve(values.out ?? path.join(HERE, 'results.json'));
  const wanted = values['only-mutants']?.split(',').map((s) => s.trim()).filter(Boolean);
  const ids = new Set(catalogue.map((m) => m.id));
  if (ids.size !== catalogue.length) throw new Error('duplicate mutant ids in the catalogue');
  for (const w of wanted ?? []) if (!ids.has(w)) throw new Error(`no mutant ${w}`);
  const rank = (m: Mutant): number => { const i = PRIORITY.indexOf(m.id); return i < 0 ? PRIORITY.length : i; };
  const selected = (wanted ? catalogue.filter((m) => wanted.includes(m.id)) : [...catalogue]).sort((a, b) => rank(a) - rank(b));
  const t0 = Date.now();

  // Baselines run lazily, just before the first mutant that needs one: a run cut short wastes none.
  const baselines = new Map<string, RunOutcome>();
  const baselineFor = async (m: Mutant): Promise<RunOutcome> => {
    const key = baselineKey(m);
    const known = baselines.get(key);
    if (known) return known;
    const outcome = await runSuite(suite, undefined, m.only, m.api, servicesOf(m));
    baselines.set(key, outcome);
    console.log(`baseline ${key}: ${outcome.failures.size} failing, ${(outcome.durationMs / 1000).toFixed(0)} s${outcome.note ? ` (${outcome.note})` : ''}`);
    return outcome;
  };

  const results: MutantResult[] = [];
  if (values.resume) {
    // --resume: keep what FILE already scored (same suite), its baselines included, and run the rest
    try {
      const previous = JSON.parse(await readFile(out, 'utf8')) as { suite: string; baselines: Record<string, { failures: string[]; durationMs: number }>; results: MutantResult[] };
      if (previous.suite === suite) {
        for (const [k, v] of Object.entries(previous.baselines)) baselines.set(k, { failures: new Set(v.failures), durationMs: v.durationMs, exitCode: null, timedOut: false });
        const byId = new Map(catalogue.map((m) => [m.id, m]));
        for (const r of previous.results) if (byId.get(r.id)?.only === r.only && byId.get(r.id)?.api === r.api) results.push(r);
      }
    } catch { /* nothing to resume */ }
  }
  const done = new Set(results.map((r) => r.id));
  for (const m of selected) {
    if (done.has(m.id)) continue;
    const base = await baselineFor(m);
    const outcome = await runSuite(suite, m, m.only, m.api, servicesOf(m));
    const killedAt = [...outcome.failures].filter((f) => !base.failures.has(f)).sort();
    const killedBy = [...new Set(killedAt.map((f) => f.split('@')[0] as string))];
    const result: MutantResult = {
      id: m.id, passage: m.passage, quote: m.quote, bug: m.bug, only: m.only, api: m.api,
      killedBy, killedAt, survived: killedBy.length === 0, durationMs: outcome.durationMs, timedOut: outcome.timedOut,
      ...(outcome.note ? { note: outcome.note } : {}),
    };
    results.push(result);
    console.log(`${m.id}: ${result.survived ? 'SURVIVED' : `killed by ${killedBy.join(', ')}`} (${(outcome.durationMs / 1000).toFixed(0)} s)`);
    // written as it goes, so a partial run keeps what it scored
    await writeFile(out, `${JSON.stringify({ suite, startedAt: new Date(t0).toISOString(), total: selected.length, done: results.length, selected: selected.map((m) => m.id), killed: results.filter((r) => !r.survived).length, baselines: Object.fromEntries([...baselines].map(([k, v]) => [k, { failures: [...v.failures].sort(), durationMs: v.durationMs }])), results }, null, 2)}\n`);
  }
  const md = markdown(results, suite);
  await writeFile(out.replace(/\.json$/, '') + '.md', md);
  console.log(md);
  console.log(`total ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

await main();
