/**
 * Refresh tokens: 48 random bytes (64 base64url characters), opaque to the client. Only their SHA-256
 * is kept (a fast hash is enough for a secret this random), with the subject and service they are
 * bound to; revoking one forgets it.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface RefreshGrant {
  subject: string;
  service: string;
  clientId: string;
  issuedAt: Date;
}

const TOKEN_BYTES = 48;

const digest = (token: string): string => createHash('sha256').update(token).digest('hex');

export class RefreshTokens {
  private readonly byDigest = new Map<string, RefreshGrant>();

  issue(grant: RefreshGrant): string {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    this.byDigest.set(digest(token), grant);
    return token;
  }

  find(token: string): RefreshGrant | undefined {
    return this.byDigest.get(digest(token));
  }

  /** Whether the token was known (it is not any more). */
  revoke(token: string): boolean {
    return this.byDigest.delete(digest(token));
  }

  /** What is kept: digests and grants, for tests that check no token is kept in clear. */
  stored(): [string, RefreshGrant][] {
    return [...this.byDigest];
  }
}
