/**
 * `shipshape serve`: the reference servers as a standalone fake daemon, until SIGINT or SIGTERM.
 * Prints each server's URL on start so scripts can read it.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CommandSpec } from './command-help.ts';
import { parseFlags } from './parse-flags.ts';
import { UsageError } from './usage-error.ts';
import { parseDialect } from '../../protocol/dialect.ts';
import { PERSONALITY_NAMES, isPersonalityName } from '../../protocol/personality-names.ts';
import {
  DEFAULT_ISSUER,
  DEFAULT_LIMITS,
  DEFAULT_SERVICE,
  formatBytes,
  guardProcess,
  readUsersFile,
  startReference,
  type ReferenceOptions,
  type RequestLimits,
} from '../../reference/serve.ts';

export const SERVE_COMMAND = {
  name: 'serve',
  description: [
    "ADDR is unix:///PATH or tcp://127.0.0.1:PORT (port 0 picks a free one). Prints each server's URL as it starts (engine: URL, token: URL, …) and runs until SIGINT or SIGTERM.",
  ],
  flags: {
    engine: { type: 'string', value: 'ADDR', default: 'tcp://127.0.0.1:0', help: 'where the reference engine (the fake daemon) listens' },
    token: { type: 'string', value: 'ADDR', defaultText: 'not started', help: "the token service (spec/3): its endpoint is URL/token; the certificate it signs with is written where serve says" },
    accounts: { type: 'string', value: 'ADDR', defaultText: 'not started', help: 'the accounts API (spec/3), over the same users as the token service' },
    registry: { type: 'string', value: 'tcp://127.0.0.1:PORT', defaultText: 'not started', help: "a fixture registry (distribution's v2 API) trusting the token service's tokens" },
    dialect: { type: 'string', value: 'engine|docker', default: 'engine', help: "the vendor names the engine answers with: engine (X-Engine-…, Buildfile) or docker (X-Docker-…, Dockerfile)" },
    swarm: { type: 'string', value: 'true|false', default: 'true', help: 'true: start as the manager of a one-node swarm, as after docker swarm init; false: outside any swarm, as a fresh dockerd starts (POST /swarm/init makes one)' },
    personality: { type: 'string', value: 'dockerd|strict', default: 'dockerd', help: "where the spec allows several answers: dockerd's (dockerd), or the other allowed one (strict: [] for array-or-null, its own error words, lists in reverse, only the spec's booleans, the listed status, empty optional fields left out)" },
    users: { type: 'string', value: 'FILE', defaultText: "the package's fixtures/users/users.json", help: 'the users of the token service and accounts API, as JSON (passwords hashed on load, never kept in clear)' },
    'token-issuer': { type: 'string', value: 'NAME', defaultText: DEFAULT_ISSUER, help: "the tokens' issuer (iss)" },
    'token-service': { type: 'string', value: 'NAME', defaultText: DEFAULT_SERVICE, help: 'the service (registry) name the tokens are for (aud)' },
    'token-key': { type: 'string', value: 'PEM', defaultText: 'a key generated on start', help: 'the private key tokens are signed with (with --token-cert)' },
    'token-cert': { type: 'string', value: 'PEM', defaultText: 'a self-signed certificate generated on start', help: "the certificate of --token-key, which a registry's rootcertbundle names" },
    'max-json-body': { type: 'string', value: 'SIZE', defaultText: formatBytes(DEFAULT_LIMITS.jsonBodyBytes), help: 'the largest engine JSON body (create, update, specs); larger ones get 413. SIZE: bytes, or with KiB, MiB or GiB' },
    'max-tar-body': { type: 'string', value: 'SIZE', defaultText: formatBytes(DEFAULT_LIMITS.tarBodyBytes), help: 'the largest tar body (build context, PUT archive, image load and import, plugin context), held in memory while read' },
    'max-form-body': { type: 'string', value: 'SIZE', defaultText: formatBytes(DEFAULT_LIMITS.formBodyBytes), help: "the largest body of the token service's and accounts API's requests" },
    'max-header': { type: 'string', value: 'SIZE', defaultText: formatBytes(DEFAULT_LIMITS.headerBytes), help: 'the largest request line and headers together; larger get 431' },
    'max-url': { type: 'string', value: 'SIZE', defaultText: formatBytes(DEFAULT_LIMITS.urlBytes), help: 'the longest request target (path and query); longer get 414' },
    'idle-timeout': { type: 'string', value: 'SECONDS', defaultText: String(DEFAULT_LIMITS.idleTimeoutMs / 1000), help: 'how long an upload may send nothing before it gets 408 and its connection closes' },
  },
  examples: [
    'shipshape serve --engine tcp://127.0.0.1:2375 --dialect docker',
    'shipshape serve --engine unix:///tmp/engine.sock --token tcp://127.0.0.1:0 --accounts tcp://127.0.0.1:0 --users users.json',
    'shipshape serve --swarm=false',
    'shipshape serve --personality strict',
    'shipshape serve --max-tar-body 2GiB --idle-timeout 300',
  ],
} as const satisfies CommandSpec;

function checkAddress(flag: string, address: string): void {
  if (!/^unix:\/\/\/.+|^tcp:\/\/127\.0\.0\.1:\d+$/.test(address)) {
    throw new UsageError(`--${flag}: expected unix:///PATH or tcp://127.0.0.1:PORT, got ${JSON.stringify(address)}`);
  }
}

type TokenFlags = Partial<Record<'token' | 'accounts' | 'users' | 'token-issuer' | 'token-service' | 'token-key' | 'token-cert', string>>;

async function readFlagFile(flag: string, file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--${flag}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** The token service's and accounts API's options from the flags; files are read here so a bad one is one clear line. */
async function tokenOptions(values: TokenFlags): Promise<Partial<ReferenceOptions>> {
  if ((values['token-key'] === undefined) !== (values['token-cert'] === undefined)) throw new UsageError('--token-key and --token-cert go together');
  const users = values.users === undefined ? undefined : await readUsersFile(values.users).catch((error: unknown) => {
    throw new UsageError(`--users: ${(error as Error).message}`);
  });
  return {
    token: values.token,
    accounts: values.accounts,
    ...(users ? { users } : {}),
    tokenIssuer: values['token-issuer'],
    tokenService: values['token-service'],
    ...(values['token-key'] !== undefined && values['token-cert'] !== undefined
      ? { tokenKeyPem: await readFlagFile('token-key', values['token-key']), tokenCertificatePem: await readFlagFile('token-cert', values['token-cert']) }
      : {}),
  };
}

const SIZE_UNITS: Record<string, number> = { '': 1, B: 1, KIB: 1024, MIB: 1024 ** 2, GIB: 1024 ** 3, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** `16MiB`, `512 KiB`, `1048576` → bytes. */
function parseSize(flag: string, text: string): number {
  const match = /^(\d+)\s*([a-z]*)$/i.exec(text.trim());
  const unit = match ? SIZE_UNITS[(match[2] ?? '').toUpperCase()] : undefined;
  const bytes = match && unit ? Number(match[1]) * unit : NaN;
  if (!Number.isSafeInteger(bytes) || bytes <= 0) throw new UsageError(`--${flag}: expected a size such as 4MiB, 512KiB or 65536, got ${JSON.stringify(text)}`);
  return bytes;
}

type LimitFlags = Partial<Record<'max-json-body' | 'max-tar-body' | 'max-form-body' | 'max-header' | 'max-url' | 'idle-timeout', string>>;

/** The limits the flags set; the others keep their defaults. */
function limitOptions(values: LimitFlags): Partial<RequestLimits> {
  const limits: Partial<RequestLimits> = {};
  if (values['max-json-body'] !== undefined) limits.jsonBodyBytes = parseSize('max-json-body', values['max-json-body']);
  if (values['max-tar-body'] !== undefined) limits.tarBodyBytes = parseSize('max-tar-body', values['max-tar-body']);
  if (values['max-form-body'] !== undefined) limits.formBodyBytes = parseSize('max-form-body', values['max-form-body']);
  if (values['max-header'] !== undefined) limits.headerBytes = parseSize('max-header', values['max-header']);
  if (values['max-url'] !== undefined) limits.urlBytes = parseSize('max-url', values['max-url']);
  const idle = values['idle-timeout'];
  if (idle !== undefined) {
    if (!/^\d+(\.\d+)?$/.test(idle) || Number(idle) <= 0) throw new UsageError(`--idle-timeout: expected seconds (a positive number), got ${JSON.stringify(idle)}`);
    limits.idleTimeoutMs = Math.ceil(Number(idle) * 1000);
  }
  return limits;
}

/**
 * A generated certificate goes to a fresh temporary directory, which a registry's `rootcertbundle` can
 * point at while serve runs; serve removes it when it stops.
 */
async function writeCertificate(pem: string): Promise<{ file: string; dir: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'shipshape-token-'));
  const file = path.join(dir, 'token-cert.pem');
  await writeFile(file, pem);
  return { file, dir };
}

export async function serveCommand(args: string[]): Promise<number> {
  const { values } = parseFlags(args, SERVE_COMMAND);
  if (values.swarm !== 'true' && values.swarm !== 'false') throw new UsageError(`--swarm: expected true or false, got ${JSON.stringify(values.swarm)}`);
  checkAddress('engine', values.engine);
  if (values.token !== undefined) checkAddress('token', values.token);
  if (values.accounts !== undefined) checkAddress('accounts', values.accounts);
  // image names carry a registry as host:port, so it listens on TCP
  if (values.registry !== undefined && !/^tcp:\/\/127\.0\.0\.1:\d+$/.test(values.registry)) {
    throw new UsageError(`--registry: expected tcp://127.0.0.1:PORT, got ${JSON.stringify(values.registry)}`);
  }
  const dialect = parseDialect(values.dialect);
  if (!isPersonalityName(values.personality)) throw new UsageError(`--personality: expected ${PERSONALITY_NAMES.join(' or ')}, got ${JSON.stringify(values.personality)}`);
  const limits = limitOptions(values);
  // A standalone fake daemon outlives a bug of ours: logged, and it keeps serving.
  const unguard = guardProcess((line) => console.error(line));
  const reference = await startReference({
    engine: values.engine,
    limits,
    dialect: dialect.name,
    swarm: values.swarm === 'true',
    personality: values.personality,
    ...(await tokenOptions(values)),
    registry: values.registry,
  });
  console.log(`engine: ${reference.engineUrl}`);
  let certificateDir: string | undefined;
  if (reference.token) {
    // The base URL, as `run --auth-url` takes it; a registry's token realm is `{base}/token`.
    console.log(`token: ${reference.token.url}`);
    console.log(`token issuer: ${reference.token.issuer}`);
    console.log(`token service: ${reference.token.service}`);
    let certificate = values['token-cert'];
    if (certificate === undefined) ({ file: certificate, dir: certificateDir } = await writeCertificate(reference.token.certificatePem));
    console.log(`token certificate: ${certificate}`);
  }
  if (reference.accounts) console.log(`accounts: ${reference.accounts.url}`);
  if (reference.registry) console.log(`registry: ${reference.registry.url}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await reference.close();
  if (certificateDir !== undefined) await rm(certificateDir, { recursive: true, force: true });
  unguard();
  return 0;
}
