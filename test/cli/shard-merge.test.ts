/**
 * `shipshape run --shard I/N` and `shipshape merge`: the shards of a run against the reference, merged,
 * hold the same checks with the same status at every version as the same run unsharded, on a machine
 * as busy as the one where two shards once lost two checks at 1.24 between them (issue 15 §5).
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../harness/report/types.ts';
import { before } from '../../protocol/versions.ts';
import { sampleReport } from '../report/sample-report.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(REPO_ROOT, 'bin/shipshape.js');
const run = promisify(execFile);
/** Seven suite files, so that each shard gets some and one file's versions fall on both sides of the split. */
const ONLY = 'system.**';
const API = '1.24,1.25';

async function shipshape(args: string[]): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, timeout: 300_000 });
    return stdout;
  } catch (error) {
    // The run's own output says which check failed: keep its end in the message.
    const failed = error as Error & { stdout?: string };
    failed.message += `\n${failed.stdout?.slice(-2000) ?? ''}`;
    throw failed;
  }
}

async function readReport(dir: string): Promise<Report> {
  return JSON.parse(await fs.readFile(path.join(dir, 'report.json'), 'utf8')) as Report;
}

/** What a run found: each check's status per version. */
function statuses(report: Report): Record<string, Record<string, string>> {
  return Object.fromEntries(report.checks.map((check) => [check.id, Object.fromEntries(Object.entries(check.results).map(([version, result]) => [version, result.status]))]));
}

/** One busy loop per core for as long as `work` runs: the load under which results once went missing. */
async function underLoad<T>(work: () => Promise<T>): Promise<T> {
  const loops = Array.from({ length: os.availableParallelism() }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  try {
    return await work();
  } finally {
    for (const loop of loops) loop.kill('SIGKILL');
  }
}

describe('shipshape run --shard and shipshape merge', { timeout: 900_000 }, async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-shards-'));
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('two shards merged equal the unsharded run, check for check and version for version, on a busy machine', async () => {
    const common = ['run', '--only', ONLY, '--api', API, '--seed', '11'];
    await underLoad(async () => {
      // One after another: three runs at once on a small machine slow each other past their deadlines.
      await shipshape([...common, '--report-dir', path.join(dir, 'whole')]);
      await shipshape([...common, '--shard', '1/2', '--report-dir', path.join(dir, 'shard1')]);
      await shipshape([...common, '--shard', '2/2', '--report-dir', path.join(dir, 'shard2')]);
    });
    const [shard1, shard2] = await Promise.all([readReport(path.join(dir, 'shard1')), readReport(path.join(dir, 'shard2'))]);
    expect([shard1.shard, shard2.shard]).toEqual(['1/2', '2/2']);
    // Each shard ran part of the work, not all of it.
    expect(statuses(shard1)).not.toEqual(statuses(await readReport(path.join(dir, 'whole'))));

    const printed = await shipshape(['merge', path.join(dir, 'shard1'), path.join(dir, 'shard2'), '--report-dir', path.join(dir, 'merged')]);
    expect(printed).toMatch(/^merged 2 shards: /);
    const [whole, merged] = await Promise.all([readReport(path.join(dir, 'whole')), readReport(path.join(dir, 'merged'))]);
    expect(statuses(merged)).toEqual(statuses(whole));
    // Every check the run selected, at both versions: nothing went missing from both runs alike.
    expect(Object.keys(statuses(merged))).toEqual(shard1.selection);
    expect(Object.values(statuses(merged)).map((byVersion) => Object.keys(byVersion))).toEqual(shard1.selection?.map(() => ['1.24', '1.25']));
    expect(merged.summary).toEqual(whole.summary);
    expect(merged.shard).toBeUndefined();
  });

  it('merge writes a result no shard holds as an error and exits 1', async () => {
    const [first, second] = [path.join(dir, 'lossy-1'), path.join(dir, 'lossy-2')];
    const { checks, ...report } = sampleReport();
    const [kept, lost] = [checks.slice(0, 1), checks.slice(1)];
    await Promise.all([fs.mkdir(first, { recursive: true }), fs.mkdir(second, { recursive: true })]);
    // Every check but the first is in neither shard at 1.25.
    const at = (only: (version: string) => boolean) => (check: (typeof checks)[number]) => ({ ...check, results: Object.fromEntries(Object.entries(check.results).filter(([version]) => only(version))) });
    await fs.writeFile(path.join(first, 'report.json'), JSON.stringify({ ...report, shard: '1/2', checks: [...kept, ...lost.map(at((version) => before(version, '1.25')))] }));
    await fs.writeFile(path.join(second, 'report.json'), JSON.stringify({ ...report, shard: '2/2', checks: [] }));
    const failure = await shipshape(['merge', first, second, '--report-dir', path.join(dir, 'lossy-merged')]).catch((error: { code: number; stdout: string }) => error);
    expect(failure).toMatchObject({ code: 1, stdout: expect.stringContaining(`\nproblem: ${lost.length} result(s) missing, reported as errors: `) });
    expect((failure as { stdout: string }).stdout).toContain(`${lost[0]?.id} at 1.25`);
    const merged = await readReport(path.join(dir, 'lossy-merged'));
    expect(merged.checks.find((check) => check.id === lost[0]?.id)?.results['1.25']).toEqual({ status: 'error', message: `no result: no shard reported ${lost[0]?.id} at 1.25` });
  });

  it('merge refuses a shard given twice, in one clear line', async () => {
    const shardDir = path.join(dir, 'made-shard');
    await fs.mkdir(shardDir, { recursive: true });
    await fs.writeFile(path.join(shardDir, 'report.json'), JSON.stringify({ ...sampleReport(), shard: '1/2' }));
    const failure = await shipshape(['merge', shardDir, shardDir]).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 2, stderr: expect.stringMatching(/^shipshape merge: expected the 2 shards of one run once each, got 1\/2, 1\/2\n$/) });
  });
});
