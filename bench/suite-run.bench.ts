/**
 * The CI gate people wait on: `shipshape run` against the embedded reference at all eight versions,
 * as a whole process, N times. Prints the median wall time and, from the run's own report, how the
 * time splits between vitest start-up, the checks, and waiting on the target.
 *
 *   node --import tsx bench/suite-run.bench.ts [runs=5]
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Report } from '../harness/report/types.ts';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.argv[2] ?? 5);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shipshape-bench-'));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const samples: { wall: number; report: Report }[] = [];
for (let i = 0; i <= runs; i += 1) {
  const started = performance.now();
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'bin/shipshape.js'), 'run', '--expect', 'fixtures/expectations/reference.json', '--report-dir', dir], { cwd: REPO_ROOT, stdio: 'ignore' });
  const wall = performance.now() - started;
  // The first run warms the disk cache and is not counted.
  if (i > 0) samples.push({ wall, report: JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8')) as Report });
}
fs.rmSync(dir, { recursive: true, force: true });

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const results = samples[0]?.report.checks.reduce((sum, check) => sum + Object.keys(check.results).length, 0) ?? 0;
console.log(`shipshape run, reference, 8 versions, ${results} check results, ${runs} runs (median) on ${os.cpus().length} cores`);
console.log(`  whole process wall      ${seconds(median(samples.map((s) => s.wall)))}`);
console.log(`  vitest run (all checks) ${seconds(median(samples.map((s) => s.report.timing?.suiteWallMs ?? NaN)))}`);
console.log(`  inside checks, summed   ${seconds(median(samples.map((s) => s.report.timing?.checkMs ?? NaN)))}`);
console.log(`  waiting on the target   ${seconds(median(samples.map((s) => s.report.timing?.targetMs ?? NaN)))}`);
