/**
 * The bearer tokens the registry trusts, as distribution's `auth.token` trusts them: signed by the key
 * of the trusted certificate (its `rootcertbundle`), issued by the trusted issuer for this service,
 * within their validity — the token service's own verifier, given the certificate's key — and
 * granting the access a request needs.
 */
import { X509Certificate } from 'node:crypto';
import { AccessTokenVerifier, type VerifiedAccess } from '../token/access-token-verifier.ts';

export interface TokenTrust {
  /** the `iss` tokens must carry */
  issuer: string;
  /** the `aud` tokens must carry: this registry's service name */
  service: string;
  /** PEM of the certificate whose key signs the tokens */
  certificatePem: string;
}

/** A verifier of the tokens the certificate's key signs: the subject and access of a good one, else undefined. */
export function trustedTokens(trust: TokenTrust, clock?: () => Date): (token: string) => VerifiedAccess | undefined {
  const publicKey = new X509Certificate(trust.certificatePem).publicKey;
  const verifier = new AccessTokenVerifier({ publicKey, algorithm: publicKey.asymmetricKeyType === 'ec' ? 'ES256' : 'RS256' }, trust.issuer, clock);
  return (token) => verifier.verify(token, trust.service);
}

/** Whether the access granted covers `action` on the resource. */
export function grants(access: VerifiedAccess, type: string, name: string, action: string): boolean {
  return access.access.some((entry) => entry.type === type && entry.name === name && entry.actions.includes(action));
}
