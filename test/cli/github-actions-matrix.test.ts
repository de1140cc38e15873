/**
 * examples/github-actions-matrix.yml run here as its CI would run it: one `serve` per matrix job (each
 * job's own daemon), the shards' `run --shard I/N` lines in parallel, their report directories
 * "uploaded" and "downloaded" under the artifact names the workflow gives, then the gate job's merge
 * line. The merged report must equal one unsharded run of the same checks, cell by cell.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../../harness/repo-root.ts';
import type { Report } from '../../harness/report/types.ts';
import { commandWords } from './command-line-words.ts';

const CLI = path.join(REPO_ROOT, 'bin/shipshape.js');
/** The checks the test runs, narrowed from the whole suite so that it takes a minute, not ten. */
const NARROWED = ['--only', 'system.**,volumes.**', '--api', '1.24,1.25'];

interface Step {
  name?: string;
  run?: string;
  with?: { name?: string; path?: string; pattern?: string };
}
interface Workflow {
  jobs: Record<string, { needs?: string; strategy?: { matrix: { shard: number[] } }; steps: Step[] }>;
}

function shipshape(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd, timeout: 240_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr }));
  });
}

/** Where a line names the job's shard: the expression's place in a word, as one word. */
const SHARD = '${{ matrix.shard }}';
const SHARD_WORD = 'MATRIX_SHARD';
/** The workflow run's number, which every shard takes as its seed. */
const RUN_NUMBER = '${{ github.run_number }}';

/** The `npx shipshape` lines of a job's steps, as argument lists, a backslash-continued line joined. */
function shipshapeLines(steps: Step[]): string[][] {
  return steps.flatMap((step) => (step.run ?? '').replace(/\\\n\s*/g, '').replaceAll(SHARD, SHARD_WORD).replaceAll(RUN_NUMBER, '4242').split('\n').map((line) => line.trim()))
    .filter((line) => line.startsWith('npx shipshape'))
    .map((line) => commandWords(line).slice(2));
}

/** Each check × version and its status. */
function cells(report: Report): Record<string, string> {
  return Object.fromEntries(report.checks.flatMap((check) => Object.entries(check.results).map(([version, result]) => [`${check.id} at ${version}`, result.status])));
}

describe('examples/github-actions-matrix.yml', { timeout: 600_000 }, async () => {
  const workflow = parse(await fs.readFile(path.join(REPO_ROOT, 'examples/github-actions-matrix.yml'), 'utf8')) as Workflow;
  const [shardJob, gateJob] = [workflow.jobs.shard!, workflow.jobs.gate!];
  const shards = shardJob.strategy!.matrix.shard;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-matrix-'));
  const servers: ChildProcess[] = [];
  afterAll(async () => {
    for (const server of servers) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** A daemon of its own, as each matrix job starts one. */
  async function serve(name: string): Promise<string> {
    const socket = `unix://${path.join(dir, `${name}.sock`)}`;
    const server = spawn(process.execPath, [CLI, 'serve', '--engine', socket, '--dialect', 'docker', '--swarm=false'], { cwd: dir });
    servers.push(server);
    await once(server.stdout!, 'data');
    return socket;
  }

  it('has a gate job after the shard jobs, and its shards split the run evenly', () => {
    expect(gateJob.needs).toBe('shard');
    expect(shards).toEqual(shards.map((_, at) => at + 1));
    const [run] = shipshapeLines(shardJob.steps).filter((args) => args[0] === 'run');
    expect(run).toContain(`${SHARD_WORD}/${shards.length}`);
  });

  it('its shards, merged by its gate job, give the report of one unsharded run, cell by cell', async () => {
    await fs.mkdir(path.join(dir, 'conformance'));
    await fs.writeFile(path.join(dir, 'conformance/expectations.json'), JSON.stringify({ target: 'the daemon under test', expected: {} }));
    const [runLine] = shipshapeLines(shardJob.steps).filter((args) => args[0] === 'run');
    const exampleTarget = runLine![runLine!.indexOf('--target') + 1]!;
    const upload = shardJob.steps.find((step) => step.with?.name?.includes(SHARD))!;
    const download = gateJob.steps.find((step) => step.with?.pattern !== undefined)!;

    const sockets = await Promise.all(shards.map((shard) => serve(`shard-${shard}`)));
    const results = await Promise.all(shards.map((shard, at) => {
      const args = runLine!.map((word) => (word === exampleTarget ? sockets[at]! : word.replaceAll(SHARD_WORD, String(shard))));
      return shipshape([...args, ...NARROWED], dir);
    }));
    for (const [at, result] of results.entries()) expect({ code: result.code, stderr: result.stderr }, `shard ${shards[at]}:\n${result.stdout.slice(-3000)}`).toEqual({ code: 0, stderr: '' });

    // upload-artifact then download-artifact: each shard's directory under its artifact's name
    for (const shard of shards) {
      const name = upload.with!.name!.replaceAll(SHARD, String(shard));
      expect(name).toMatch(new RegExp(`^${download.with!.pattern!.replace('*', '.*')}$`));
      await fs.cp(path.join(dir, upload.with!.path!.replaceAll(SHARD, String(shard))), path.join(dir, download.with!.path!, name), { recursive: true });
    }
    const [merge] = shipshapeLines(gateJob.steps);
    expect(merge![0]).toBe('merge');
    const merged = await shipshape(merge!, dir);
    expect({ code: merged.code, stderr: merged.stderr }, merged.stdout).toEqual({ code: 0, stderr: '' });
    expect(merged.stdout).toContain('gate: passed');

    const whole = await shipshape(['run', '--target', await serve('whole'), '--dialect', 'docker', '--seed', '4242', '--report-dir', 'reports/whole', ...NARROWED], dir);
    expect(whole.code, whole.stdout.slice(-3000)).toBe(0);
    const mergedDir = merge![merge!.indexOf('--report-dir') + 1]!;
    const [mergedReport, wholeReport] = await Promise.all([mergedDir, 'reports/whole'].map(async (reports) => JSON.parse(await fs.readFile(path.join(dir, reports, 'report.json'), 'utf8')) as Report));
    expect(Object.keys(cells(wholeReport!)).length).toBeGreaterThan(50);
    expect(cells(mergedReport!)).toEqual(cells(wholeReport!));
    for (const file of ['summary.md', 'junit.xml', 'report.html']) await expect(fs.stat(path.join(dir, mergedDir, file)), file).resolves.toBeDefined();
  });
});
