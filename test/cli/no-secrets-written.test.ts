/**
 * No password and no refresh token in clear in anything a run writes: `shipshape run` against a
 * reference whose token and accounts servers run in this process (so the refresh tokens they issue
 * can be noted as they go out), with the token service made to hand a refresh token to every grant
 * so that checks fail and their failure messages quote token answers. Then every file under the
 * report directory (reports, allure results) and the run's output are searched for the fixture
 * passwords and each refresh token. The reference itself writes no store file: users and refresh
 * tokens live in memory, as hashes.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../reference/serve.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(REPO_ROOT, 'bin/shipshape.js');
const FIXTURE_USERS = JSON.parse(await fs.readFile(path.join(REPO_ROOT, 'fixtures/users/users.json'), 'utf8')) as { username: string; password: string }[];
const run = promisify(execFile);

/** The token and accounts checks whose failures quote token answers; not token.expiry, which waits out a token's whole lifetime. */
const QUOTING_CHECKS = 'token.grant.**,token.get.**,token.refresh.**,token.request.**,token.scope.**,accounts.**';

let reference: RunningReference;
let dir: string;
const issued: string[] = [];

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-secrets-'));
  reference = await startReference({ token: 'tcp://127.0.0.1:0', accounts: 'tcp://127.0.0.1:0' });
  const tokens = reference.token?.tokens;
  if (!tokens) throw new Error('no token service');
  const issue = tokens.refreshTokens.issue.bind(tokens.refreshTokens);
  tokens.refreshTokens.issue = (grant) => {
    const token = issue(grant);
    issued.push(token);
    return token;
  };
  // A refresh token for every password grant: the checks that expect none fail and quote the answer.
  const grant = tokens.grant.bind(tokens);
  tokens.grant = (request) => grant(request.grantType === 'password' ? { ...request, accessType: 'offline' } : request);
});

afterAll(async () => {
  await reference.close();
  await fs.rm(dir, { recursive: true, force: true });
});

async function filesUnder(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

test('a run with failing token and accounts checks writes no password and no refresh token in clear', { timeout: 180_000 }, async () => {
  const [user] = FIXTURE_USERS;
  if (!user || !reference.token || !reference.accounts) throw new Error('setup: fixture user or servers missing');
  const reportDir = path.join(dir, 'report');
  const args = [
    CLI, 'run', '--target', reference.engineUrl, '--api', '1.25', '--only', QUOTING_CHECKS, '--report-dir', reportDir,
    '--auth-url', reference.token.url, '--accounts-url', reference.accounts.url, '--service', reference.token.service, '--user', user.username, '--password', user.password,
  ];
  const output = await run(process.execPath, args, { cwd: REPO_ROOT, timeout: 170_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, text: stdout + stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? -1, text: `${error.stdout ?? ''}${error.stderr ?? ''}` }),
  );
  await fs.writeFile(path.join(reportDir, 'run.log'), output.text);

  // The run must have gone through the failure paths that quote token answers, with refresh tokens in them.
  expect(output.code, output.text.slice(-2000)).toBe(1);
  expect(issued.length).toBeGreaterThan(5);
  const files = await filesUnder(reportDir);
  expect(files.map((file) => path.basename(file))).toEqual(expect.arrayContaining(['report.json', 'junit.xml', 'report.html', 'summary.md', 'run.log']));
  const report = await fs.readFile(path.join(reportDir, 'report.json'), 'utf8');
  expect(report).toContain('token.grant.online-no-refresh-token');
  expect(report).toContain('<masked>');

  const secrets = [...FIXTURE_USERS.map(({ username, password }) => ({ what: `${username}'s password`, value: password })), ...issued.map((value, index) => ({ what: `refresh token ${index + 1}`, value }))];
  const found: string[] = [];
  for (const file of files) {
    const text = await fs.readFile(file, 'utf8');
    for (const secret of secrets) if (text.includes(secret.value)) found.push(`${secret.what} in ${path.relative(reportDir, file)}`);
  }
  expect(found).toEqual([]);
});
