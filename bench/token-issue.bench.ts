/**
 * Token issues per second: POST /token password grants and refresh grants, one request at a time,
 * against the token service started in this process (tcp, over undici as a client would), side by
 * side with the cost of one KDF verification (scrypt N=2^14, r=8: what each password grant pays) and
 * of one ES256 signature, all in one run. Each figure is the median of N runs after a warm-up; every
 * answer is checked to be 200 with an access token. The load average is printed: on a shared machine
 * it explains most of the spread.
 *
 *   node --import tsx bench/token-issue.bench.ts [runs=5] [password grants per run=40] [refresh grants per run=400]
 */
import os from 'node:os';
import { request } from 'undici';
import { signJwt } from '../reference/token/jwt.ts';
import { generateSigningKey } from '../reference/token/signing-key.ts';
import { startTokenService } from '../reference/token/token-service.ts';
import { hashPassword, verifyPassword } from '../reference/users/password-hash.ts';
import { UserStore } from '../reference/users/user-store.ts';

const runs = Number(process.argv[2] ?? 5);
const passwordGrants = Number(process.argv[3] ?? 40);
const refreshGrants = Number(process.argv[4] ?? 400);
const USER = { username: 'bench', password: 'bench-password-0', email: 'bench@example.org', access: [{ type: 'repository', name: 'bench/*', actions: ['pull', 'push'] }] };
const SCOPE = 'repository:bench/app:pull,push';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function post(url: string, fields: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await request(`${url}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  const body = (await res.body.json()) as Record<string, unknown>;
  if (res.statusCode !== 200 || typeof body.access_token !== 'string') throw new Error(`expected 200 with a token, got ${res.statusCode} ${JSON.stringify(body.error)}`);
  return body;
}

/** Operations per second of `count` sequential calls of `operation`, median of the runs after one warm-up run. */
async function perSecond(count: number, operation: () => Promise<unknown>): Promise<number> {
  const rates: number[] = [];
  for (let run = -1; run < runs; run += 1) {
    const started = performance.now();
    for (let i = 0; i < count; i += 1) await operation();
    if (run >= 0) rates.push(count / ((performance.now() - started) / 1000));
  }
  return median(rates);
}

const service = await startTokenService({ users: await UserStore.create([USER]), service: 'bench' });
try {
  const grant = { service: 'bench', client_id: 'bench', scope: SCOPE };
  const { refresh_token: refreshToken } = await post(service.url, { ...grant, grant_type: 'password', username: USER.username, password: USER.password, access_type: 'offline' });
  const password = await perSecond(passwordGrants, () => post(service.url, { ...grant, grant_type: 'password', username: USER.username, password: USER.password }));
  const refresh = await perSecond(refreshGrants, () => post(service.url, { ...grant, grant_type: 'refresh_token', refresh_token: String(refreshToken) }));
  const hash = await hashPassword(USER.password);
  const kdf = await perSecond(passwordGrants, () => verifyPassword(USER.password, hash));
  const key = generateSigningKey('bench', new Date());
  const claims = { iss: 'bench', sub: 'bench', aud: 'bench', exp: 0, nbf: 0, iat: 0, jti: 'x', access: [{ type: 'repository', name: 'bench/app', actions: ['pull', 'push'] }] };
  const sign = await perSecond(refreshGrants * 5, async () => signJwt(key, claims));
  const row = (what: string, rate: number) => `| ${what} | ${rate.toFixed(0)} /s | ${(1000 / rate).toFixed(2)} ms |`;
  console.log(`load average ${os.loadavg().map((load) => load.toFixed(2)).join(' ')}; ${os.cpus().length} cores; Node ${process.version}; median of ${runs} runs`);
  console.log('| what | per second | each |');
  console.log('|---|---|---|');
  console.log(row(`POST /token, grant_type=password (${passwordGrants} per run)`, password));
  console.log(row(`POST /token, grant_type=refresh_token (${refreshGrants} per run)`, refresh));
  console.log(row('one scrypt verification (N=2^14, r=8, p=1), alone', kdf));
  console.log(row('one ES256 access token signed, alone', sign));
} finally {
  await service.close();
}
