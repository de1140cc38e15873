/**
 * The bearer tokens the registry trusts (the token service's JWTs, as distribution's `auth.token`
 * checks them): signed by the key of the trusted certificate (ES256 or RS256), issued by the trusted
 * issuer for this service, within their validity, and granting the access a request needs.
 */
import { verify, X509Certificate, type KeyObject } from 'node:crypto';

export interface TokenTrust {
  /** the `iss` tokens must carry */
  issuer: string;
  /** the `aud` tokens must carry: this registry's service name */
  service: string;
  /** PEM of the certificate whose key signs the tokens */
  certificatePem: string;
}

export interface AccessEntry {
  type: string;
  name: string;
  actions: string[];
}

export interface AccessClaims {
  sub: string;
  access: AccessEntry[];
}

/** distribution's leeway for clocks that disagree, in seconds */
const LEEWAY_SECONDS = 60;

/** Why a token is refused; the message goes into the 401's error detail. */
export class TokenRefused extends Error {
  override name = 'TokenRefused';
}

export class AccessTokenVerifier {
  private readonly key: KeyObject;

  constructor(
    private readonly trust: TokenTrust,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.key = new X509Certificate(trust.certificatePem).publicKey;
  }

  /** The claims of a token that passes every test; TokenRefused naming the first it fails. */
  verify(token: string): AccessClaims {
    const parts = token.split('.');
    if (parts.length !== 3) throw new TokenRefused('token is not a JWS compact serialization');
    const [headerPart = '', payloadPart = '', signaturePart = ''] = parts;
    const header = decodeJson(headerPart) as { alg?: unknown };
    const signed = Buffer.from(`${headerPart}.${payloadPart}`);
    const signature = Buffer.from(signaturePart, 'base64url');
    if (!this.signatureHolds(header.alg, signed, signature)) throw new TokenRefused('token signed by untrusted key');
    const claims = decodeJson(payloadPart) as Record<string, unknown>;
    if (claims.iss !== this.trust.issuer) throw new TokenRefused('token from untrusted issuer');
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!audiences.includes(this.trust.service)) throw new TokenRefused('token intended for another audience');
    const seconds = this.now().getTime() / 1000;
    if (typeof claims.exp !== 'number' || claims.exp + LEEWAY_SECONDS < seconds) throw new TokenRefused('token has expired');
    if (typeof claims.nbf === 'number' && claims.nbf - LEEWAY_SECONDS > seconds) throw new TokenRefused('token used before issued');
    return { sub: typeof claims.sub === 'string' ? claims.sub : '', access: accessEntries(claims.access) };
  }

  private signatureHolds(alg: unknown, signed: Buffer, signature: Buffer): boolean {
    const expected = this.key.asymmetricKeyType === 'ec' ? 'ES256' : 'RS256';
    if (alg !== expected) return false;
    return alg === 'ES256' ? verify('sha256', signed, { key: this.key, dsaEncoding: 'ieee-p1363' }, signature) : verify('sha256', signed, this.key, signature);
  }
}

/** Whether the claims grant `action` on the resource. */
export function grants(claims: AccessClaims, type: string, name: string, action: string): boolean {
  return claims.access.some((entry) => entry.type === type && entry.name === name && entry.actions.includes(action));
}

function decodeJson(part: string): unknown {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null) return value;
  } catch {
    // refused below
  }
  throw new TokenRefused('token is malformed');
}

function accessEntries(value: unknown): AccessEntry[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown) => {
    const { type, name, actions } = (entry ?? {}) as Record<string, unknown>;
    if (typeof type !== 'string' || typeof name !== 'string' || !Array.isArray(actions)) return [];
    return [{ type, name, actions: actions.filter((action): action is string => typeof action === 'string') }];
  });
}
