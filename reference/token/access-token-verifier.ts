/**
 * Checks an access token the way a resource server does: our key's signature, our issuer, the
 * audience it serves, and the time window (`nbf` ≤ now < `exp`). The accounts API runs in the same
 * process as the token service and checks with the same key, so no key travels.
 */
import { verifiedClaims } from './jwt.ts';
import type { SigningKey } from './signing-key.ts';
import type { AccessClaim } from './token-issuer.ts';

export interface VerifiedAccess {
  subject: string;
  access: AccessClaim[];
}

export class AccessTokenVerifier {
  constructor(
    private readonly key: Pick<SigningKey, 'publicKey' | 'algorithm'>,
    private readonly issuer: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The token's subject and access when it is ours, for `audience`, and current; otherwise undefined. */
  verify(token: string, audience: string): VerifiedAccess | undefined {
    const claims = verifiedClaims(this.key, token);
    if (!claims || claims.iss !== this.issuer || claims.aud !== audience) return undefined;
    const now = this.clock().getTime() / 1000;
    if (typeof claims.exp !== 'number' || typeof claims.nbf !== 'number' || now >= claims.exp || now < claims.nbf) return undefined;
    if (typeof claims.sub !== 'string' || !Array.isArray(claims.access) || !claims.access.every(isAccessClaim)) return undefined;
    return { subject: claims.sub, access: claims.access };
  }
}

/** A well-signed token may still carry a claim we never issue (`null`, a name that is not a string): such a token is no token. */
function isAccessClaim(entry: unknown): entry is AccessClaim {
  if (typeof entry !== 'object' || entry === null) return false;
  const { type, name, actions } = entry as Record<string, unknown>;
  return typeof type === 'string' && typeof name === 'string' && Array.isArray(actions) && actions.every((action) => typeof action === 'string');
}
