/**
 * The token service as a server: `startTokenService(options)` → `{ url, certificatePem, issuer,
 * service, verifier, tokens, close() }`.
 *
 * - `POST {url}/token`: spec/3 §2.1 form (grant_type password or refresh_token, service, client_id,
 *   access_type, scope, refresh_token, username, password) → `{access_token, token, scope,
 *   expires_in, issued_at[, refresh_token]}`; RFC 6749 §5.2 errors, 400 (401 for invalid_client).
 * - `GET {url}/token` with HTTP Basic (`service`, repeated `scope`, `offline_token=true`, `client_id`,
 *   `account`) → the same body; bad credentials 401; no credentials, an anonymous token with no access.
 * - `POST {url}/revoke` (RFC 7009, form `token`): forgets a refresh token.
 *
 * Access tokens are JWTs a distribution registry accepts: header `alg` ES256 (P-256 key) or RS256
 * (RSA key), `kid` (libtrust key id) and `x5c` (the certificate chain, base64 DER); claims `iss`,
 * `sub`, `aud` (the requested service, one string), `exp`, `nbf`, `iat`, `jti` and `access`
 * (`[{type, name, actions}]`). Point a registry's `auth.token` at `realm: {url}/token`, `service`,
 * `issuer` and `rootcertbundle`: a file holding `certificatePem`.
 */
import { createTokenServer, type TokenServerOptions } from './http/token-server.ts';
import { AccessTokenVerifier } from './access-token-verifier.ts';
import { generateSigningKey, loadSigningKey } from './signing-key.ts';
import { TokenIssuer } from './token-issuer.ts';
import { closeServer, httpUrl, listen, parseListenAddress } from '../listen.ts';
import type { UserStore } from '../users/user-store.ts';

export interface TokenServiceOptions {
  /** `tcp://HOST:PORT` or `unix:///path`; default `tcp://127.0.0.1:0` */
  address?: string;
  users: UserStore;
  /** the `iss` claim; default `shipshape-token` */
  issuer?: string;
  /** the service (registry) name the accounts API takes tokens for; default `shipshape-registry`. Tokens are issued for any service asked */
  service?: string;
  /** PEM of an ECDSA P-256 or RSA private key, with `certificatePem`; without both, a key and a self-signed certificate are made */
  keyPem?: string;
  certificatePem?: string;
  /** seconds an access token lives (at least 60); default 300 */
  expiresIn?: number;
  clock?: () => Date;
  /** what one request may cost, and where the server's own bugs are logged */
  http?: TokenServerOptions;
}

export interface RunningTokenService {
  /** `http://HOST:PORT` (or `unix:///path`): the token endpoint is `{url}/token` */
  url: string;
  /** the signing certificate (chain), PEM: a registry's `rootcertbundle` */
  certificatePem: string;
  issuer: string;
  service: string;
  /** checks this service's access tokens, for a resource server in the same process (the accounts API) */
  verifier: AccessTokenVerifier;
  /** the rules behind the endpoint, for tests */
  tokens: TokenIssuer;
  close(): Promise<void>;
}

export const DEFAULT_ISSUER = 'shipshape-token';
export const DEFAULT_SERVICE = 'shipshape-registry';

export async function startTokenService(options: TokenServiceOptions): Promise<RunningTokenService> {
  const clock = options.clock ?? (() => new Date());
  const issuer = options.issuer ?? DEFAULT_ISSUER;
  if ((options.keyPem === undefined) !== (options.certificatePem === undefined)) throw new Error('give the token signing key and its certificate together, or neither');
  const key = options.keyPem !== undefined && options.certificatePem !== undefined ? loadSigningKey(options.keyPem, options.certificatePem) : generateSigningKey(issuer, clock());
  const tokens = new TokenIssuer({ users: options.users, key, issuer, expiresIn: options.expiresIn, clock });
  const server = createTokenServer(tokens, options.http);
  const url = httpUrl(await listen(server, parseListenAddress(options.address ?? 'tcp://127.0.0.1:0')));
  return {
    url,
    certificatePem: key.certificatePem,
    issuer,
    service: options.service ?? DEFAULT_SERVICE,
    verifier: new AccessTokenVerifier(key, issuer, clock),
    tokens,
    close: () => closeServer(server),
  };
}
