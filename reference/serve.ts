/**
 * The reference as a library: start its servers, get their URLs, close them. Users run it as a fake
 * daemon in their own tests; the harness runs it as the default target. Test-only controls live on
 * the returned object, never on the emulated API's paths.
 */
import { readFile } from 'node:fs/promises';
import { DIALECTS, type DialectName } from '../protocol/dialect.ts';
import { createEngineServer } from './engine/http/engine-server.ts';
import { PERSONALITIES } from './engine/http/personality.ts';
import { EngineModel } from './engine/model/engine-model.ts';
import type { Scheduler } from './engine/process/index.ts';
import { HttpRegistries } from './engine/registry-client/registry-client.ts';
import { closeServer, httpUrl, listen, parseListenAddress } from './listen.ts';
import { createRegistryServer } from './registry/registry-server.ts';
import { RegistryStorage } from './registry/registry-storage.ts';
import { startAccountsApi, type RunningAccountsApi } from './accounts/accounts-api.ts';
import type { PersonalityName } from '../protocol/personality-names.ts';
import { startTokenService, type RunningTokenService } from './token/token-service.ts';
import { FIXTURE_USERS_FILE } from './users/fixture-users.ts';
import { resolveLimits, type RequestLimits } from './request-limits.ts';
import { STDERR_LOG, type BugLog } from './request-pipeline.ts';
import { UserStore } from './users/user-store.ts';
import { readUsersFile, type UserEntry } from './users/users-file.ts';

export interface ReferenceOptions {
  /** `unix:///path/to.sock` or `tcp://HOST:PORT` (port 0 picks a free one); default `tcp://127.0.0.1:0` */
  engine?: string;
  /** vendor names on the wire; default `engine` */
  dialect?: DialectName;
  /** where the spec allows a choice: answer as dockerd does (`dockerd`, the default) or the other allowed way (`strict`) */
  personality?: PersonalityName;
  /** the clock of the engine, the token service and the accounts API (default: real time) */
  clock?: () => Date;
  /** the engine's id source, 64 hex digits per call (default: random) */
  ids?: () => string;
  /** the clock container processes sleep on, and stop timeouts and restart delays wait on (default: real time) */
  scheduler?: Scheduler;
  /** the engine's resolver configuration, resolv.conf text, that containers' /etc/resolv.conf comes from (default: this host's /etc/resolv.conf, as dockerd reads it) */
  resolvConf?: string;
  /** whether the engine starts as the manager of a one-node swarm, as after `docker swarm init` (default: true, as `serve`'s contract has it; false: outside any swarm, as a fresh dockerd starts) */
  swarm?: boolean;
  /** where the token service listens (`tcp://HOST:PORT`, `unix:///path`); it starts when this or `accounts` is given */
  token?: string;
  /** where the accounts API listens; it needs the token service, which then starts on a free port if `token` is not given */
  accounts?: string;
  /** the users of the token service and accounts API (default: fixtures/users/users.json); passwords are hashed on load */
  users?: UserEntry[];
  /** the access tokens' `iss` (default `shipshape-token`) */
  tokenIssuer?: string;
  /** the service (registry) name whose tokens the accounts API takes (default `shipshape-registry`) */
  tokenService?: string;
  /** PEM of the signing key and of its certificate, together; without them a key and a self-signed certificate are made */
  tokenKeyPem?: string;
  tokenCertificatePem?: string;
  /** the access tokens' lifetime in seconds, `expires_in` (default 300; never under spec/3's 60) */
  tokenExpiresIn?: number;
  /** where the fixture registry listens; it trusts the token service (started on a free port if `token` is not given) */
  registry?: string;
  /** what one request may cost the engine, token service and accounts API (README, Limits); unset ones keep DEFAULT_LIMITS */
  limits?: Partial<RequestLimits>;
  /** where the servers log their own bugs, one line with the stack each (default: stderr) */
  log?: BugLog;
}

export interface RunningReference {
  /** `unix:///path` or `tcp://HOST:PORT` with the port actually bound */
  engineUrl: string;
  /** the engine's state, for tests that arrange or inspect it directly */
  model: EngineModel;
  /** the token service, when asked for: its URL, certificate, issuer and service name */
  token?: RunningTokenService;
  accounts?: RunningAccountsApi;
  /** the fixture registry, when asked for: `http://HOST:PORT`, and its `host:port` as image names carry it */
  registry?: { url: string; host: string };
  /** test-only: back to a fresh engine (no containers, seeded images) without restarting */
  reset(): void;
  /** stops listening, ends open connections (keep-alive and streaming ones included) and every container process */
  close(): Promise<void>;
}

const DEFAULT_ENGINE_ADDRESS = 'tcp://127.0.0.1:0';

export { parseListenAddress };
// What the CLI needs besides startReference: the reference's one entry point.
export { DEFAULT_LIMITS, formatBytes, type RequestLimits } from './request-limits.ts';
export { guardProcess } from './request-pipeline.ts';
export { readUsersFile };
export { DEFAULT_ISSUER, DEFAULT_SERVICE } from './token/token-service.ts';

export async function startReference(options: ReferenceOptions = {}): Promise<RunningReference> {
  const resolvConf = options.resolvConf ?? (await readFile('/etc/resolv.conf', 'utf8').catch(() => ''));
  const model = new EngineModel({ clock: options.clock, ids: options.ids, scheduler: options.scheduler, swarm: options.swarm ?? true, registries: new HttpRegistries(), resolvConf });
  const http = { limits: resolveLimits(options.limits), log: options.log ?? STDERR_LOG };
  const server = createEngineServer({ model, dialect: DIALECTS[options.dialect ?? 'engine'], personality: PERSONALITIES[options.personality ?? 'dockerd'], ...http });
  const engineUrl = await listen(server, parseListenAddress(options.engine ?? DEFAULT_ENGINE_ADDRESS));
  const { token, accounts } = await startAccountServers(options, http).catch(async (error: unknown) => {
    await closeServer(server);
    throw error;
  });
  const registryServer = token && options.registry !== undefined ? createRegistryServer({ storage: new RegistryStorage(), trust: token, realm: `${token.url}/token`, clock: options.clock }) : undefined;
  const registryUrl = registryServer && options.registry !== undefined ? httpUrl(await listen(registryServer, parseListenAddress(options.registry))) : undefined;
  return {
    engineUrl,
    model,
    ...(token ? { token } : {}),
    ...(accounts ? { accounts } : {}),
    ...(registryUrl ? { registry: { url: registryUrl, host: new URL(registryUrl).host } } : {}),
    reset: () => model.reset(),
    close: async () => {
      if (registryServer) await closeServer(registryServer);
      await accounts?.close();
      await token?.close();
      await closeServer(server);
      model.reset();
    },
  };
}

/** The token service and the accounts API over one users store, when either is asked for. */
async function startAccountServers(options: ReferenceOptions, http: { limits: RequestLimits; log: BugLog }): Promise<{ token?: RunningTokenService; accounts?: RunningAccountsApi }> {
  if (options.token === undefined && options.accounts === undefined && options.registry === undefined) return {};
  const clock = options.clock;
  const users = await UserStore.create(options.users ?? (await readUsersFile(FIXTURE_USERS_FILE)), { clock });
  const token = await startTokenService({
    address: options.token,
    users,
    issuer: options.tokenIssuer,
    service: options.tokenService,
    keyPem: options.tokenKeyPem,
    certificatePem: options.tokenCertificatePem,
    expiresIn: options.tokenExpiresIn,
    clock,
    http,
  });
  if (options.accounts === undefined) return { token };
  try {
    return { token, accounts: await startAccountsApi({ address: options.accounts, users, tokenService: token, http }) };
  } catch (error) {
    await token.close();
    throw error;
  }
}

