/**
 * `shipshape run --shard I/N` and `shipshape merge`: the shards of a run against the reference, merged,
 * hold the same checks with the same status at every version as the same run unsharded.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../../harness/report/types.ts';
import { sampleReport } from '../report/sample-report.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(REPO_ROOT, 'bin/shipshape.js');
const run = promisify(execFile);
/** Checks whose statuses do not depend on timing, over several files so that each shard gets some. */
const ONLY = 'system.ping.**,system.version.**,system.errors.**,system.prefix.**';
const API = '1.23,1.24';

async function shipshape(args: string[]): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, timeout: 120_000 });
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

describe('shipshape run --shard and shipshape merge', { timeout: 360_000 }, async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-shards-'));
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('two shards merged equal the unsharded run, check for check and version for version', async () => {
    const common = ['run', '--only', ONLY, '--api', API, '--seed', '11'];
    // One after another: three runs at once on a small machine slow each other past their deadlines.
    await shipshape([...common, '--report-dir', path.join(dir, 'whole')]);
    await shipshape([...common, '--shard', '1/2', '--report-dir', path.join(dir, 'shard1')]);
    await shipshape([...common, '--shard', '2/2', '--report-dir', path.join(dir, 'shard2')]);
    const [shard1, shard2] = await Promise.all([readReport(path.join(dir, 'shard1')), readReport(path.join(dir, 'shard2'))]);
    expect([shard1.shard, shard2.shard]).toEqual(['1/2', '2/2']);
    // Each shard ran part of the work, not all of it.
    expect(statuses(shard1)).not.toEqual(statuses(await readReport(path.join(dir, 'whole'))));

    const printed = await shipshape(['merge', path.join(dir, 'shard1'), path.join(dir, 'shard2'), '--report-dir', path.join(dir, 'merged')]);
    expect(printed).toMatch(/^merged 2 shards: /);
    const [whole, merged] = await Promise.all([readReport(path.join(dir, 'whole')), readReport(path.join(dir, 'merged'))]);
    expect(statuses(merged)).toEqual(statuses(whole));
    expect(merged.summary).toEqual(whole.summary);
    expect(merged.shard).toBeUndefined();
  });

  it('merge refuses a shard given twice, in one clear line', async () => {
    const shardDir = path.join(dir, 'made-shard');
    await fs.mkdir(shardDir, { recursive: true });
    await fs.writeFile(path.join(shardDir, 'report.json'), JSON.stringify({ ...sampleReport(), shard: '1/2' }));
    const failure = await shipshape(['merge', shardDir, shardDir]).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 2, stderr: expect.stringMatching(/^shipshape merge: expected the 2 shards of one run once each, got 1\/2, 1\/2\n$/) });
  });
});
