/**
 * Compact JWS (RFC 7515) with ES256 or RS256 over node:crypto. ES256 signatures are the raw r‖s pair
 * (RFC 7518 §3.4), not DER: `dsaEncoding: 'ieee-p1363'`.
 */
import { sign, verify } from 'node:crypto';
import type { SigningKey } from './signing-key.ts';

const base64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

export function signJwt(key: SigningKey, claims: object): string {
  const header = { typ: 'JWT', alg: key.algorithm, kid: key.keyId, x5c: key.x5c };
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  const signature = sign('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${base64url(signature)}`;
}

/** The claims of a JWT whose signature `key` made, or undefined for anything else (malformed, other key, other algorithm). */
export function verifiedClaims(key: Pick<SigningKey, 'publicKey' | 'algorithm'>, token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [headerText = '', claimsText = '', signatureText = ''] = parts;
  try {
    const header = JSON.parse(Buffer.from(headerText, 'base64url').toString('utf8')) as { alg?: unknown };
    if (header.alg !== key.algorithm) return undefined;
    const valid = verify('sha256', Buffer.from(`${headerText}.${claimsText}`), { key: key.publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signatureText, 'base64url'));
    if (!valid) return undefined;
    const claims: unknown = JSON.parse(Buffer.from(claimsText, 'base64url').toString('utf8'));
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims) ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
