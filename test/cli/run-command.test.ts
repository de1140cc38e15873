/**
 * `shipshape run` as a user runs it, in a child process: a real report.json from a real run against
 * the reference validates against the report contract (the package's copy of
 * ../shared/report.schema.json); and the exit codes of DESIGN.md hold.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(REPO_ROOT, 'bin/shipshape.js');
const run = promisify(execFile);

async function shipshape(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

interface AllureResult {
  name: string;
  labels: { name: string; value: string }[];
  parameters: { name: string; value: string }[];
}

describe('shipshape run', { timeout: 60_000 }, async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-run-'));
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('writes a real report.json that validates against the shared schema, and exits 0', async () => {
    const result = await shipshape(['run', '--only', 'system.**', '--api', '1.18,1.25', '--seed', '7', '--report-dir', dir]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const schema = JSON.parse(await fs.readFile(path.join(REPO_ROOT, 'harness/report/report.schema.json'), 'utf8')) as object;
    const validate = addFormats(new Ajv2020({ allErrors: true, strict: false })).compile(schema);
    const report = JSON.parse(await fs.readFile(path.join(dir, 'report.json'), 'utf8')) as { seed: number; versions: string[]; checks: { results: object }[] };
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.seed).toBe(7);
    expect(report.versions).toEqual(['1.18', '1.25']);
    expect(report.checks.length).toBeGreaterThan(10);
    expect(report.checks.every((check) => Object.keys(check.results).length === 2)).toBe(true);
    for (const file of ['junit.xml', 'report.html', 'summary.md']) expect((await fs.stat(path.join(dir, file))).size).toBeGreaterThan(0);

    // Allure's results: one per check and version, the area as feature, the check as story, version and target as parameters.
    const allureDir = path.join(dir, 'allure-results');
    const results = await Promise.all((await fs.readdir(allureDir)).filter((file) => file.endsWith('-result.json')).map(async (file) => JSON.parse(await fs.readFile(path.join(allureDir, file), 'utf8')) as AllureResult));
    expect(results).toHaveLength(report.checks.length * 2);
    for (const result of results) {
      const label = (name: string) => result.labels.filter((entry) => entry.name === name).map((entry) => entry.value);
      expect({ feature: label('feature'), story: label('story'), parameters: result.parameters.map((parameter) => parameter.name) }).toEqual({
        feature: [result.name.split('.')[0]],
        story: [result.name],
        parameters: ['API version', 'target'],
      });
    }
  });

  it('an unreachable target is one line naming it, exit 2', async () => {
    const result = await shipshape(['run', '--target', 'unix:///nonexistent.sock', '--report-dir', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('/nonexistent.sock');
  });

  it('a bad flag is one line, exit 2', async () => {
    const result = await shipshape(['run', '--no-such-flag']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining('--no-such-flag')]);
  });

  it('a malformed expectations file is one line naming it, exit 2', async () => {
    const file = path.join(dir, 'bad-expectations.json');
    await fs.writeFile(file, '{"target": "x", "expected": {"system.ping.ok": {"1.2x": "why"}}}');
    const result = await shipshape(['run', '--expect', file]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining('bad-expectations.json')]);
  });

  it('an expected failure that passes fails the gate: exit 1 and unexpected-pass in the report', async () => {
    const file = path.join(dir, 'stale-expectations.json');
    await fs.writeFile(file, JSON.stringify({ target: 'reference', expected: { 'system.ping.ok': { '1.25': 'pretend it fails' } } }));
    const result = await shipshape(['run', '--only', 'system.ping.*', '--api', '1.25', '--expect', file, '--report-dir', dir]);
    expect(result.code).toBe(1);
    const report = JSON.parse(await fs.readFile(path.join(dir, 'report.json'), 'utf8')) as { checks: { id: string; results: Record<string, { status: string }> }[] };
    expect(report.checks.find((check) => check.id === 'system.ping.ok')?.results['1.25']?.status).toBe('unexpected-pass');
    // listed again at the end, where CI's log tail shows it
    const closing = result.stdout.trim().split('\n').slice(-5);
    expect(closing[0]).toMatch(/^unexpected: 1\.25 system\.ping\.ok \(unexpected-pass\): listed as expected to fail \(pretend it fails\)/);
  });
});
