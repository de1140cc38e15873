/**
 * The fuzz suite at scale (issue 16): `count` seeded requests (default 100 000) against a
 * `shipshape serve` child, as test/fuzz/serve-fuzz.test.ts runs 20 000 in CI. Prints requests per
 * second, the CPU each side used, 5xx by class (client mistakes, and the 500s the spec's rows allow),
 * crashes, hangs, the slowest /_ping and the child's peak RSS, then a bench/README.md table row.
 * Exit 1 when the run found something (a crash, a hang, a connection closed unanswered, a slow ping, a
 * client-mistake 5xx, memory kept).
 *
 *   npm run bench:fuzz [-- count]          FUZZ_SEED, FUZZ_CONCURRENCY, … as the test reads them
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { fuzzEnvironment } from '../test/fuzz/fuzz-environment.ts';
import { formatSummary, runFuzz } from '../test/fuzz/fuzz-run.ts';

const count = Number(process.argv[2] ?? process.env.FUZZ_COUNT ?? 100_000);
const options = { ...fuzzEnvironment(process.env, { count, root: fileURLToPath(new URL('../', import.meta.url)) }), count };
const load = os.loadavg()[0]?.toFixed(1);
const summary = await runFuzz({ ...options, log: (line) => console.log(line) });
console.log(formatSummary(summary));
const findings = summary.fiveHundreds.filter((entry) => !entry.allowed);
const allowed = summary.fiveHundreds.filter((entry) => entry.allowed);
const total = (entries: typeof findings) => entries.reduce((sum, entry) => sum + entry.count, 0);
console.log(
  `| ${new Date().toISOString().slice(0, 10)} | ${summary.seed} | ${summary.sent} | ${summary.seconds.toFixed(0)} s | ${summary.requestsPerSecond.toFixed(0)} | ${summary.cpuSeconds.serve.toFixed(0)} s / ${summary.cpuSeconds.client.toFixed(0)} s | ${summary.crashes.length} | ${summary.hangs.length} | ${total(findings)} (${findings.length}) | ${total(allowed)} (${allowed.length}) | ${summary.pings.maxMs.toFixed(0)} ms | ${summary.memory.peakMb.toFixed(0)} MB | ${summary.memory.afterMb.toFixed(0)} MB | ${load} → ${os.loadavg()[0]?.toFixed(1)} |`,
);
const clean = summary.crashes.length === 0 && summary.hangs.length === 0 && summary.closed.length === 0 && summary.pings.misses.length === 0 && findings.length === 0 && summary.memory.afterMb < summary.memory.boundMb;
process.exitCode = clean ? 0 : 1;
