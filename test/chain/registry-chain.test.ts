/**
 * The real chain of issue 6: real dockerd does `docker login`, `push` and `pull` through a real
 * distribution registry (Debian's docker-registry) configured with `auth.token` to trust our token
 * service, with tokens from that service; then the same through our fixture registry. Everything
 * runs on the loopback: `shipshape serve --token --registry`, docker-registry with the certificate
 * serve wrote as its rootcertbundle, and a private dockerd (.ci/dockerd-start.sh) on its own bridge.
 *
 * It starts daemons and needs root, so it runs only when asked (SHIPSHAPE_CHAIN=1, as .ci/run does)
 * and is skipped, saying why, where dockerd, docker, docker-registry or ip are missing.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BRIDGE = 'br-shipchain';
const BRIDGE_ADDRESS = '172.30.0.1/16';
const STEP_TIMEOUT_MS = 120_000;

const alice = (JSON.parse(readFileSync(path.join(ROOT, 'fixtures/users/users.json'), 'utf8')) as Array<{ username: string; password: string }>)[0];

function missing(): string | undefined {
  if (process.env.SHIPSHAPE_CHAIN !== '1') return 'SHIPSHAPE_CHAIN=1 not set';
  if (process.getuid?.() !== 0) return 'not root';
  for (const tool of ['dockerd', 'docker', 'docker-registry', 'ip']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed`;
  }
  if (alice === undefined) return 'fixtures/users/users.json lists no user';
  return undefined;
}
const skipReason = missing();

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Lines `name: value` a child prints, once it has printed all of `names`. */
function printed(child: ChildProcess, names: string[]): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const values: Record<string, string> = {};
    let output = '';
    const timer = setTimeout(() => reject(new Error(`serve printed no ${names.join(', ')} in time: ${output}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of output.split('\n')) {
        const match = /^([a-z ]+): (.+)$/.exec(line);
        if (match?.[1] && match[2]) values[match[1]] = match[2];
      }
      if (names.every((name) => values[name] !== undefined)) {
        clearTimeout(timer);
        resolve(values);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${output}`)));
  });
}

/** Polls until the registry answers /v2/ (with its 401 challenge). */
async function answering(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = await fetch(`${url}/v2/`).then((res) => res.status, () => 0);
    if (status === 401) return;
    if (Date.now() > deadline) throw new Error(`${url}/v2/ did not answer 401 within 30 s (last: ${status})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(skipReason !== undefined)(`the registry chain with real dockerd${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  // made in beforeAll, not here: a skipped describe still runs its body, and left them behind
  let work = '';
  let dockerdDir = '';
  const children: ChildProcess[] = [];
  let createdBridge = false;
  let fixtureRegistry = '';
  let distributionRegistry = '';
  let dockerHost = '';

  const docker = (args: string[], input?: string | Buffer) =>
    spawnSync('docker', args, { input, env: { ...process.env, DOCKER_HOST: dockerHost, DOCKER_CONFIG: path.join(work, 'docker-config') }, timeout: STEP_TIMEOUT_MS, encoding: 'utf8' });
  const succeeded = (args: string[], input?: string | Buffer): string => {
    const result = docker(args, input);
    if (result.status !== 0) throw new Error(`docker ${args.join(' ')} exited ${result.status}: ${result.stderr}${result.stdout}`);
    return result.stdout;
  };

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'shipchain-'));
    dockerdDir = mkdtempSync('/tmp/sdchain.');
    const serve = spawn(process.execPath, [path.join(ROOT, 'bin/shipshape.js'), 'serve', '--token', 'tcp://127.0.0.1:0', '--registry', 'tcp://127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(serve);
    const served = await printed(serve, ['token', 'token issuer', 'token service', 'token certificate', 'registry']);
    fixtureRegistry = new URL(served.registry ?? '').host;

    const port = await freePort();
    distributionRegistry = `127.0.0.1:${port}`;
    const config = [
      'version: 0.1',
      'log: {level: warn}',
      `storage: {filesystem: {rootdirectory: ${path.join(work, 'registry-data')}}}`,
      `http: {addr: "${distributionRegistry}"}`,
      'auth:',
      '  token:',
      `    realm: "${served.token}/token"`,
      `    service: "${served['token service']}"`,
      `    issuer: "${served['token issuer']}"`,
      `    rootcertbundle: "${served['token certificate']}"`,
    ].join('\n');
    writeFileSync(path.join(work, 'registry.yml'), `${config}\n`);
    children.push(spawn('docker-registry', ['serve', path.join(work, 'registry.yml')], { stdio: 'ignore' }));
    await answering(`http://${distributionRegistry}`);

    if (spawnSync('ip', ['link', 'show', BRIDGE], { stdio: 'ignore' }).status !== 0) {
      execFileSync('ip', ['link', 'add', BRIDGE, 'type', 'bridge']);
      execFileSync('ip', ['addr', 'add', BRIDGE_ADDRESS, 'dev', BRIDGE]);
      execFileSync('ip', ['link', 'set', BRIDGE, 'up']);
      createdBridge = true;
    }
    const extra = `--insecure-registry ${distributionRegistry} --insecure-registry ${fixtureRegistry} --bridge=${BRIDGE}`;
    dockerHost = execFileSync('bash', [path.join(ROOT, '.ci/dockerd-start.sh'), dockerdDir], { env: { ...process.env, DOCKERD_EXTRA_ARGS: extra }, encoding: 'utf8', timeout: STEP_TIMEOUT_MS }).trim();

    // a one-binary image made here: the chain needs no image from the network
    const rootfs = path.join(work, 'rootfs');
    mkdirSync(path.join(rootfs, 'bin'), { recursive: true });
    execFileSync('cp', ['/bin/busybox', path.join(rootfs, 'bin/busybox')]);
    execFileSync('tar', ['-C', rootfs, '-cf', path.join(work, 'rootfs.tar'), '.']);
    succeeded(['import', path.join(work, 'rootfs.tar'), 'shipchain/busybox:v1']);
  }, 4 * STEP_TIMEOUT_MS);

  afterAll(() => {
    if (dockerHost !== '') spawnSync('bash', [path.join(ROOT, '.ci/dockerd-stop.sh'), dockerdDir, '--purge'], { stdio: 'ignore', timeout: STEP_TIMEOUT_MS });
    else if (dockerdDir !== '') rmSync(dockerdDir, { recursive: true, force: true });
    for (const child of children) child.kill('SIGTERM');
    if (createdBridge) spawnSync('ip', ['link', 'del', BRIDGE]);
    if (work !== '') rmSync(work, { recursive: true, force: true });
  }, STEP_TIMEOUT_MS);

  const registries = [
    ['docker-registry (distribution) trusting the token service', () => distributionRegistry],
    ['the fixture registry', () => fixtureRegistry],
  ] as const;

  it.each(registries)('docker login, push, and pull back through %s', (_, registry) => {
    const host = registry();
    const name = `${host}/alice/chain:v1`;
    const refused = docker(['login', host, '--username', alice?.username ?? '', '--password-stdin'], 'not-the-password\n');
    expect(refused.status, `login with a wrong password: ${refused.stdout}`).not.toBe(0);
    expect(refused.stderr).toMatch(/unauthorized/);

    expect(succeeded(['login', host, '--username', alice?.username ?? '', '--password-stdin'], `${alice?.password}\n`)).toMatch(/Login Succeeded/);
    // the CLI keeps the identity token the login gave, never the password
    const config = readFileSync(path.join(work, 'docker-config/config.json'), 'utf8');
    expect(config).not.toContain(alice?.password ?? '');
    expect((JSON.parse(config) as { auths: Record<string, { identitytoken?: string }> }).auths[host]?.identitytoken).toMatch(/^.{32,}$/);

    succeeded(['tag', 'shipchain/busybox:v1', name]);
    const pushed = succeeded(['push', name]);
    const digest = /v1: digest: (sha256:[0-9a-f]{64}) size: \d+/.exec(pushed)?.[1];
    expect(digest, `push output: ${pushed}`).toBeDefined();

    succeeded(['rmi', name]);
    const pulled = succeeded(['pull', name]);
    expect(pulled).toContain(`Digest: ${digest}`);
    expect(pulled).toContain(`Status: Downloaded newer image for ${name}`);
    expect(succeeded(['image', 'inspect', '--format', '{{json .RepoDigests}}', name])).toContain(`${host}/alice/chain@${digest}`);
    succeeded(['rmi', name]);
  }, 4 * STEP_TIMEOUT_MS);
});
