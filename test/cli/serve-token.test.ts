/**
 * `shipshape serve --token --accounts --users --token-issuer --token-service` as a user runs it: the
 * lines it prints (token base URL, issuer, service, where the certificate went, accounts URL), a token
 * for a user of the given file signed by the written certificate's key, the accounts API answering that
 * user, exit 0 on SIGTERM; and a users file that is not one is a one-line error, exit 2.
 */
import { execFile, spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { libtrustKeyId } from '../../reference/token/signing-key.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = path.join(REPO_ROOT, 'bin/shipshape.js');
const run = promisify(execFile);
const GINA = { username: 'gina', password: 'gina-pw-Ty56', email: 'gina@example.org', access: [{ type: 'repository', name: 'gina/*', actions: ['pull'] }] };

/** Reads the child's output until every line of `labels` has been printed. */
async function printed(child: ReturnType<typeof spawn>, labels: string[]): Promise<Record<string, string>> {
  let text = '';
  const lines = () => Object.fromEntries(text.split('\n').map((line) => /^([a-z ]+): (.*)$/.exec(line)).filter((match) => match !== null).map((match) => [match[1], match[2]]));
  while (!labels.every((label) => label in lines())) {
    const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
    text += chunk.toString();
  }
  return lines() as Record<string, string>;
}

describe('shipshape serve with the token service and accounts API', { timeout: 90_000 }, async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-serve-token-'));
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('prints the token URL, issuer, service, certificate file and accounts URL; both answer a user of --users; exits 0 on SIGTERM', async () => {
    const users = path.join(dir, 'users.json');
    await fs.writeFile(users, JSON.stringify([GINA]));
    const child = spawn(process.execPath, [CLI, 'serve', '--token', 'tcp://127.0.0.1:0', '--accounts', 'tcp://127.0.0.1:0', '--users', users, '--token-issuer', 'iss.test', '--token-service', 'svc.test'], { cwd: REPO_ROOT });
    const lines = await printed(child, ['engine', 'token', 'token issuer', 'token service', 'token certificate', 'accounts']);
    expect(lines.token).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect([lines['token issuer'], lines['token service']]).toEqual(['iss.test', 'svc.test']);
    const certificate = new X509Certificate(await fs.readFile(lines['token certificate'] ?? '', 'utf8'));
    expect(certificate.subject).toBe('CN=iss.test');

    const form = new URLSearchParams({ grant_type: 'password', service: 'svc.test', client_id: 'tests', username: 'gina', password: GINA.password, scope: 'repository:gina/app:pull' });
    const token = await fetch(`${lines.token}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    const { access_token: accessToken, scope } = (await token.json()) as { access_token: string; scope: string };
    expect(scope).toBe('repository:gina/app:pull');
    const header = JSON.parse(Buffer.from(accessToken.split('.')[0] ?? '', 'base64url').toString()) as { kid: string };
    expect(header.kid).toBe(libtrustKeyId(certificate.publicKey));

    const basic = `Basic ${Buffer.from(`gina:${GINA.password}`).toString('base64')}`;
    const user = await fetch(`${lines.accounts}/api/v1.1/users/gina/`, { headers: { authorization: basic } });
    expect(((await user.json()) as { email: string }).email).toBe(GINA.email);

    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(0);
    // The certificate's directory goes with serve: nothing of it stays in the temporary directory.
    await expect(fs.access(path.dirname(lines['token certificate'] ?? ''))).rejects.toThrow();
  });

  it('a users file that is not a list of users is one line on stderr and exit 2', async () => {
    const users = path.join(dir, 'bad-users.json');
    await fs.writeFile(users, JSON.stringify([{ username: 'x', password: 'secret-not-to-print', email: 'nope' }]));
    const failed = await run(process.execPath, [CLI, 'serve', '--token', 'tcp://127.0.0.1:0', '--users', users], { cwd: REPO_ROOT }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
    );
    expect(failed.code).toBe(2);
    expect(failed.stderr.trim().split('\n')).toHaveLength(1);
    expect(failed.stderr).toContain('--users');
    expect(failed.stderr).not.toContain('secret-not-to-print');
  });
});
