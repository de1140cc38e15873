/**
 * The package is the product: `npm pack` installed into an empty project, then used from there as a
 * daemon team's CI uses it: `npx shipshape run` against the reference, `npx shipshape serve` answering
 * /_ping, `npx shipshape list --json`. Nothing there reaches the checkout: the working directory is the
 * project, PATH holds nothing of the checkout, and the reports land in the project.
 *
 * The install is offline, from the npm cache `npm ci` filled: the project's lockfile pins what the
 * checkout's package-lock.json pins, runtime dependencies only (a package the runtime imports but
 * package.json lists under devDependencies is then missing, as it would be for a user).
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface LockEntry {
  dev?: boolean;
}

interface PackageJson {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  bin: Record<string, string>;
  engines: Record<string, string>;
}

/** The environment of a user's shell: nothing of the checkout on PATH, nothing of this test run's npm script or vitest. */
function userEnvironment(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(VITEST|npm_package_|npm_lifecycle_|INIT_CWD$)/.test(name)));
  const checkout = path.resolve(REPO_ROOT);
  env.PATH = (process.env.PATH ?? '').split(path.delimiter).filter((entry) => !path.resolve(entry).startsWith(checkout)).join(path.delimiter);
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

function exec(command: string, args: string[], cwd: string, timeout: number): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: userEnvironment(), timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

describe('the packed package, installed into an empty project', { timeout: 300_000 }, () => {
  let dir: string;
  let project: string;
  let packed: { filename: string; files: { path: string }[] };

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-package-'));
    project = path.join(dir, 'project');
    await fs.mkdir(project);
    const pack = await exec('npm', ['pack', '--json', '--pack-destination', dir], REPO_ROOT, 120_000);
    expect(pack.code, pack.stderr).toBe(0);
    [packed] = JSON.parse(pack.stdout) as [typeof packed];

    const pkg = JSON.parse(await fs.readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as PackageJson;
    const lock = JSON.parse(await fs.readFile(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
    const tarball = `file:../${packed.filename}`;
    const runtime = Object.entries(lock.packages).filter(([key, entry]) => key !== '' && !entry.dev);
    await fs.writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'daemon-ci', private: true, dependencies: { [pkg.name]: tarball } }));
    await fs.writeFile(path.join(project, 'package-lock.json'), JSON.stringify({
      name: 'daemon-ci',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'daemon-ci', dependencies: { [pkg.name]: tarball } },
        [`node_modules/${pkg.name}`]: { version: pkg.version, resolved: tarball, dependencies: pkg.dependencies, bin: pkg.bin, engines: pkg.engines },
        ...Object.fromEntries(runtime),
      },
    }));
    const install = await exec('npm', ['ci', '--offline'], project, 240_000);
    expect(install.code, `npm ci --offline (npm ci in the checkout fills the cache it reads): ${install.stderr.slice(-2000)}`).toBe(0);
  }, 400_000);

  afterAll(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('holds what a run needs and nothing of the development: no tests, benchmarks, CI or reports', () => {
    const files = packed.files.map((file) => file.path);
    for (const needed of ['bin/shipshape.js', 'harness/cli/main.ts', 'harness/report/report.schema.json', 'reference/serve.ts', 'protocol/versions.ts', 'suites/system/ping.check.ts', 'fixtures/users/users.json', 'fixtures/spec-inventory.json', 'vitest.config.ts', 'tsconfig.json', 'README.md', 'package.json']) {
      expect(files, needed).toContain(needed);
    }
    expect(files.filter((file) => /^(test|bench|reports|examples|\.ci|docs|node_modules)\/|^(NOTES\.md|eslint\.config\.js|package-lock\.json)$/.test(file))).toEqual([]);
  });

  // build.context.* sends bzip2 and xz contexts: the reference decodes them in a worker thread, which must boot from the installed package
  it('npx shipshape run --only system.**,build.context.** --api 1.25 passes against the reference, with its reports in the project', async () => {
    const result = await exec('npx', ['shipshape', 'run', '--only', 'system.**,build.context.**', '--api', '1.25'], project, 240_000);
    expect({ code: result.code, stderr: result.stderr }, result.stdout.slice(-3000)).toEqual({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^gate: passed/m);
    expect(result.stdout).not.toContain(REPO_ROOT);
    // the contract ships in the package, where `shipshape/report.schema.json` names it
    const schemaFile = createRequire(path.join(project, 'package.json')).resolve('shipshape/report.schema.json');
    expect(schemaFile.startsWith(path.join(project, 'node_modules', 'shipshape'))).toBe(true);
    const validate = addFormats(new Ajv2020({ allErrors: true, strict: false })).compile(JSON.parse(await fs.readFile(schemaFile, 'utf8')) as object);
    const report = JSON.parse(await fs.readFile(path.join(project, 'reports/latest/report.json'), 'utf8')) as { versions: string[]; checks: unknown[] };
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.versions).toEqual(['1.25']);
    expect(report.checks.length).toBeGreaterThan(10);
  });

  it('npx shipshape serve --engine tcp://127.0.0.1:0 answers /_ping', async () => {
    // its own process group: npx does not pass SIGTERM on to the server it started
    const child = spawn('npx', ['shipshape', 'serve', '--engine', 'tcp://127.0.0.1:0'], { cwd: project, env: userEnvironment(), detached: true });
    const exited = once(child, 'exit');
    try {
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const found = /^engine: tcp:\/\/(127\.0\.0\.1:\d+)$/m.exec(output)?.[1];
          if (found) resolve(`http://${found}`);
        });
        child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
        void exited.then(() => reject(new Error(`serve exited before printing its engine URL: ${output}`)));
      });
      const ping = await request(`${url}/_ping`);
      expect({ status: ping.statusCode, body: await ping.body.text() }).toEqual({ status: 200, body: 'OK' });
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  });

  it('npx shipshape list --json lists the checks', async () => {
    const result = await exec('npx', ['shipshape', 'list', '--json'], project, 180_000);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const checks = JSON.parse(result.stdout) as { id: string; area: string }[];
    expect(checks.length).toBeGreaterThan(100);
    expect(checks.find((check) => check.id === 'system.ping.ok')?.area).toBe('system');
  });
});
