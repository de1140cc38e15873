/**
 * `shipshape run` as a child process, for the tests that cut a run short (a signal to it, its target
 * killed): its output as it comes, a wait for a line of it, its exit with the time it came, and the
 * report directory it wrote, every file checked present and report.json checked against the contract.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Report } from '../../harness/report/types.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A progress line (non-TTY: a line per suite file and version) that counts at least one passed check. */
export const PASSES_LINE = /^\[\s*\d+\] v1\.\d+\s+\S+: [1-9]\d* passed/m;

export interface RunProcess {
  child: ChildProcess;
  /** stdout and stderr so far, interleaved as they came */
  output(): string;
  /** resolves once the output matches, with the match; rejects naming `what` when the run exits first or `timeoutMs` passes */
  waitFor(pattern: RegExp, what: string, timeoutMs?: number): Promise<RegExpExecArray>;
  /** the exit code (null when a signal ended it: then the signal) and Date.now() at the exit */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

export function startRun(args: string[]): RunProcess {
  const child = spawn(process.execPath, ['bin/shipshape.js', 'run', ...args], { cwd: REPO_ROOT });
  let output = '';
  const waiters = new Set<() => void>();
  const take = (chunk: string) => {
    output += chunk;
    for (const waiter of waiters) waiter();
  };
  child.stdout?.setEncoding('utf8').on('data', take);
  child.stderr?.setEncoding('utf8').on('data', take);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })));
  const waitFor = (pattern: RegExp, what: string, timeoutMs = 90_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const fail = (why: string) => () => reject(new Error(`${why} before ${what}; the run printed:\n${output.slice(-2000)}`));
      const timer = setTimeout(fail(`${timeoutMs} ms passed`), timeoutMs);
      const check = () => {
        const match = pattern.exec(output);
        if (!match) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(match);
      };
      waiters.add(check);
      void exited.then(() => {
        if (!waiters.has(check)) return;
        waiters.delete(check);
        clearTimeout(timer);
        fail('the run exited')();
      });
      check();
    });
  return { child, output: () => output, waitFor, exited };
}

/** The four report files and allure-results/ in `dir`, and report.json, valid against the package's copy of the report schema. */
export async function writtenReport(dir: string): Promise<Report> {
  for (const file of ['report.json', 'junit.xml', 'report.html', 'summary.md']) expect((await fs.stat(path.join(dir, file))).size, file).toBeGreaterThan(0);
  expect((await fs.stat(path.join(dir, 'allure-results'))).isDirectory()).toBe(true);
  const schema = JSON.parse(await fs.readFile(path.join(REPO_ROOT, 'harness/report/report.schema.json'), 'utf8')) as object;
  const validate = addFormats(new Ajv2020({ allErrors: true, strict: false })).compile(schema);
  const report = JSON.parse(await fs.readFile(path.join(dir, 'report.json'), 'utf8')) as Report;
  expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
  return report;
}

/** Each check × version result of a report, with its key. */
export function resultsOf(report: Report): { key: string; status: string; message?: string }[] {
  return report.checks.flatMap((check) => report.versions.map((version) => ({ key: `${check.id} ${version}`, ...(check.results[version] ?? { status: 'absent' }) })));
}
