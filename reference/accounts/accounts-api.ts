/**
 * The accounts API as a server: `startAccountsApi(options)` → `{ url, close() }`, over the users store
 * the token service uses, taking the token service's bearer tokens for its service.
 */
import { createAccountsServer, type AccountsServerOptions } from './http/accounts-server.ts';
import { closeServer, httpUrl, listen, parseListenAddress } from '../listen.ts';
import type { RunningTokenService } from '../token/token-service.ts';
import type { UserStore } from '../users/user-store.ts';

export interface AccountsApiOptions {
  /** `tcp://HOST:PORT` or `unix:///path`; default `tcp://127.0.0.1:0` */
  address?: string;
  users: UserStore;
  /** whose access tokens it takes: their signature, issuer and service are checked */
  tokenService: Pick<RunningTokenService, 'verifier' | 'service'>;
  /** what one request may cost, and where the server's own bugs are logged */
  http?: Pick<AccountsServerOptions, 'limits' | 'log'>;
}

export interface RunningAccountsApi {
  /** `http://HOST:PORT` (or `unix:///path`); the API is under `{url}/api/v1.1/` */
  url: string;
  close(): Promise<void>;
}

export async function startAccountsApi(options: AccountsApiOptions): Promise<RunningAccountsApi> {
  const server = createAccountsServer({ users: options.users, verifier: options.tokenService.verifier, audience: options.tokenService.service, ...options.http });
  const url = httpUrl(await listen(server, parseListenAddress(options.address ?? 'tcp://127.0.0.1:0')));
  return { url, close: () => closeServer(server) };
}
