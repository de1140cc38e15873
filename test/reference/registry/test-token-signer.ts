/**
 * Tokens for registry tests, signed as the token service signs them (its signing key and JWTs),
 * without its users and grants: any access, any claim overridden to make a bad token.
 */
import { randomUUID } from 'node:crypto';
import { signJwt } from '../../../reference/token/jwt.ts';
import { generateSigningKey } from '../../../reference/token/signing-key.ts';
import type { AccessClaim } from '../../../reference/token/token-issuer.ts';

export interface TestSigner {
  issuer: string;
  service: string;
  certificatePem: string;
  /** a token for `access`, valid for five minutes from now unless `claims` says otherwise */
  sign(access: AccessClaim[], claims?: Record<string, unknown>): string;
}

export function createTestSigner(options: { issuer?: string; service?: string } = {}): TestSigner {
  const issuer = options.issuer ?? 'test-issuer';
  const service = options.service ?? 'test-registry';
  const key = generateSigningKey(issuer, new Date());
  return {
    issuer,
    service,
    certificatePem: key.certificatePem,
    sign: (access, claims = {}) => {
      const now = Math.floor(Date.now() / 1000);
      return signJwt(key, { iss: issuer, sub: 'alice', aud: service, exp: now + 300, nbf: now - 1, iat: now, jti: randomUUID(), access, ...claims });
    },
  };
}
