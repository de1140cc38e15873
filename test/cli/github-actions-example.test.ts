/**
 * examples/github-actions.yml is what a daemon team copies, so its commands must work as written: it
 * installs the release tarball `npm pack` makes for this version (package-install.test.ts installs
 * such a tarball and runs it), and each of its `npx shipshape …` lines, in the workflow's order, runs
 * against the reference served where the example's daemon listens (a run narrowed to system.ping.*
 * at 1.25), and leaves the files the later steps publish.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { commandWords } from './command-line-words.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(REPO_ROOT, 'bin/shipshape.js');

interface Workflow {
  env: Record<string, string>;
  jobs: Record<string, { steps: { name?: string; run?: string; with?: { path?: string } }[] }>;
}

function shipshape(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd, timeout: 120_000 }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? -1) : 0, stdout, stderr }));
  });
}

describe('examples/github-actions.yml', { timeout: 240_000 }, async () => {
  const workflow = parse(await fs.readFile(path.join(REPO_ROOT, 'examples/github-actions.yml'), 'utf8')) as Workflow;
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  // the shell lines of every step, a backslash-continued line joined into one
  const lines = steps.flatMap((step) => (step.run ?? '').replace(/\\\n\s*/g, '').split('\n').map((line) => line.trim()));
  const pkg = JSON.parse(await fs.readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

  it('installs the release tarball of this version, as npm pack names it', () => {
    const tarball = workflow.env.SHIPSHAPE_TARBALL ?? '';
    expect(tarball).toMatch(/^https:\/\//);
    expect(path.posix.basename(new URL(tarball).pathname)).toBe(`${pkg.name}-${pkg.version}.tgz`);
    expect(lines.filter((line) => line.startsWith('npm '))).toEqual(['npm install --no-save "$SHIPSHAPE_TARBALL"']);
  });

  it('runs each of its shipshape lines against the reference where its daemon listens', async () => {
    const invocations = lines.filter((line) => line.startsWith('npx shipshape')).map((line) => commandWords(line).slice(2));
    expect(invocations.map((args) => args[0])).toEqual(['--version', 'run', 'diff', 'cleanup']);
    for (const args of invocations) expect(args.join(' '), 'no shell variables to expand').not.toContain('$');

    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-example-'));
    const socket = `unix://${path.join(dir, 'daemon.sock')}`;
    const server = spawn(process.execPath, [CLI, 'serve', '--engine', socket, '--dialect', 'docker'], { cwd: dir });
    try {
      await once(server.stdout, 'data');
      const runArgs = invocations.find((args) => args[0] === 'run')!;
      const exampleTarget = runArgs[runArgs.indexOf('--target') + 1];
      // what the daemon team keeps in its repository: an expectations file
      await fs.mkdir(path.join(dir, 'conformance'));
      await fs.writeFile(path.join(dir, 'conformance/expectations.json'), JSON.stringify({ target: 'the daemon under test', expected: {} }));
      for (const example of invocations) {
        const args = example.map((word) => (word === exampleTarget ? socket : word));
        if (args[0] === 'run') args.push('--only', 'system.ping.*', '--api', '1.25');
        // the baseline the diff step reads: the main branch's report, here this run's
        if (args[0] === 'diff') await fs.cp(path.join(dir, 'reports/daemon'), path.join(dir, path.dirname(args[1]!)), { recursive: true });
        const result = await shipshape(args, dir);
        expect({ code: result.code, stderr: result.stderr }, `shipshape ${args.join(' ')}\n${result.stdout}`).toEqual({ code: 0, stderr: '' });
      }
      // what the later steps publish and upload is there
      const uploaded = steps.flatMap((step) => step.with?.path?.split('\n').map((line) => line.trim()).filter(Boolean) ?? []);
      expect(uploaded.length).toBeGreaterThan(0);
      for (const file of uploaded) await expect(fs.stat(path.join(dir, file)), file).resolves.toBeDefined();
    } finally {
      server.kill('SIGTERM');
      await once(server, 'exit');
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
