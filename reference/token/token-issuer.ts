/**
 * The token service's rules (spec/3 §2.1, §2.2, §8), apart from HTTP: a grant request in, an access
 * token (a JWT a distribution registry accepts) out, or an OAuthError. Grants: `password` and
 * `refresh_token`; `authorization_code` is reserved, so unsupported. `access_type=offline` adds a
 * refresh token, bound to the subject and the service; the refresh grant gives back that same token,
 * never a new one. Scopes are granted as the subset the user's rules allow.
 */
import { randomBytes } from 'node:crypto';
import { grantScopes, ownAccountRule } from './access-rules.ts';
import { signJwt } from './jwt.ts';
import { OAuthError } from './oauth-error.ts';
import { RefreshTokens } from './refresh-tokens.ts';
import { ScopeSyntaxError, formatScopeList, parseScopeList, type Scope } from '../../protocol/scope-list.ts';
import type { SigningKey } from './signing-key.ts';
import type { UserRecord, UserStore } from '../users/user-store.ts';

export interface GrantRequest {
  grantType?: string;
  service?: string;
  clientId?: string;
  accessType?: string;
  /** one scope list (POST's `scope` field), or the scopes of GET's repeated `scope` joined */
  scope?: string;
  refreshToken?: string;
  username?: string;
  password?: string;
}

export interface IssuedToken {
  accessToken: string;
  /** the scope list granted */
  scope: string;
  expiresIn: number;
  issuedAt: Date;
  refreshToken?: string;
}

export interface TokenIssuerOptions {
  users: UserStore;
  key: SigningKey;
  /** the `iss` claim */
  issuer: string;
  /** seconds an access token lives; at least 60 (spec/3 §8) */
  expiresIn?: number;
  clock?: () => Date;
}

/** The access token's `access` claim: what distribution reads. */
export interface AccessClaim {
  type: string;
  class?: string;
  name: string;
  actions: string[];
}

export const MIN_EXPIRES_IN = 60;
const DEFAULT_EXPIRES_IN = 300;
/** RFC 6749 Appendix A.1: client_id is VSCHAR, printable ASCII */
const CLIENT_ID = /^[\x20-\x7e]+$/;

export class TokenIssuer {
  readonly refreshTokens = new RefreshTokens();
  readonly expiresIn: number;
  private readonly clock: () => Date;

  constructor(private readonly options: TokenIssuerOptions) {
    this.expiresIn = Math.max(options.expiresIn ?? DEFAULT_EXPIRES_IN, MIN_EXPIRES_IN);
    this.clock = options.clock ?? (() => new Date());
  }

  async grant(request: GrantRequest): Promise<IssuedToken> {
    if (request.grantType === undefined || request.grantType === '') throw new OAuthError('invalid_request', 'grant_type is required');
    if (request.grantType !== 'password' && request.grantType !== 'refresh_token') {
      throw new OAuthError('unsupported_grant_type', `grant_type ${JSON.stringify(request.grantType)} is not supported: password or refresh_token`);
    }
    const service = required(request.service, 'service');
    const clientId = required(request.clientId, 'client_id');
    if (!CLIENT_ID.test(clientId)) throw new OAuthError('invalid_request', 'client_id must be printable ASCII (RFC 6749 Appendix A.1)');
    const offline = accessTypeIsOffline(request.accessType);
    const scopes = parseScopes(request.scope ?? '');
    if (request.grantType === 'password') {
      const username = required(request.username, 'username');
      const user = await this.options.users.authenticate(username, required(request.password, 'password'));
      if (!user) throw new OAuthError('invalid_grant', 'the user name or password is wrong');
      const refreshToken = offline ? this.refreshTokens.issue({ subject: user.username, service, clientId, issuedAt: this.clock() }) : undefined;
      return this.issue(user, service, scopes, refreshToken);
    }
    const refreshToken = required(request.refreshToken, 'refresh_token');
    const bound = this.refreshTokens.find(refreshToken);
    if (!bound || bound.service !== service) throw new OAuthError('invalid_grant', 'the refresh token is unknown, revoked, or for another service');
    const user = this.options.users.get(bound.subject);
    if (!user?.isActive) throw new OAuthError('invalid_grant', "the refresh token's user is gone");
    return this.issue(user, service, scopes, offline ? refreshToken : undefined);
  }

  /** An access token with no access for a caller without credentials (GET /token without Basic: a registry's anonymous pull). */
  anonymous(request: Pick<GrantRequest, 'service' | 'scope'>): IssuedToken {
    const service = required(request.service, 'service');
    parseScopes(request.scope ?? '');
    return this.sign('', service, []);
  }

  revoke(refreshToken: string): boolean {
    return this.refreshTokens.revoke(refreshToken);
  }

  private issue(user: UserRecord, service: string, requested: Scope[], refreshToken: string | undefined): IssuedToken {
    const granted = grantScopes(requested, [...user.access, ownAccountRule(user.username)]);
    return { ...this.sign(user.username, service, granted), ...(refreshToken ? { refreshToken } : {}) };
  }

  private sign(subject: string, service: string, granted: Scope[]): IssuedToken {
    const issuedAt = this.clock();
    const now = Math.floor(issuedAt.getTime() / 1000);
    const access: AccessClaim[] = granted.map((scope) => ({ type: scope.type, ...(scope.class ? { class: scope.class } : {}), name: scope.name, actions: scope.actions }));
    const claims = { iss: this.options.issuer, sub: subject, aud: service, exp: now + this.expiresIn, nbf: now, iat: now, jti: randomBytes(16).toString('hex'), access };
    return { accessToken: signJwt(this.options.key, claims), scope: formatScopeList(granted), expiresIn: this.expiresIn, issuedAt };
  }
}

function required(value: string | undefined, field: string): string {
  if (value === undefined || value === '') throw new OAuthError('invalid_request', `${field} is required`);
  return value;
}

function accessTypeIsOffline(accessType: string | undefined): boolean {
  if (accessType === undefined || accessType === '' || accessType === 'online') return false;
  if (accessType === 'offline') return true;
  throw new OAuthError('invalid_request', `access_type must be online or offline, not ${JSON.stringify(accessType)}`);
}

function parseScopes(text: string): Scope[] {
  try {
    return parseScopeList(text);
  } catch (error) {
    if (error instanceof ScopeSyntaxError) throw new OAuthError('invalid_scope', error.message);
    throw error;
  }
}
