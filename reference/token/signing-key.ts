/**
 * The token service's signing key and its certificate: given as PEM (`--token-key`, `--token-cert`)
 * or made at start (a P-256 key and a self-signed certificate). The JWT header names the key the way
 * a distribution registry looks it up: `kid` is libtrust's key id of the public key, `x5c` the chain.
 */
import { X509Certificate, createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { selfSignedCertificate } from './self-signed-certificate.ts';

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** ES256 for a P-256 key, RS256 for an RSA key */
  algorithm: 'ES256' | 'RS256';
  /** libtrust key id */
  keyId: string;
  certificatePem: string;
  /** the certificate chain as JWS `x5c`: base64 DER, the signing certificate first */
  x5c: string[];
}

const GENERATED_LIFETIME_MS = 10 * 365 * 24 * 3600 * 1000;

/**
 * libtrust's key id (docker/libtrust `keyIDFromCryptoKey`): SHA-256 of the DER public key, cut to
 * 240 bits, base32, in twelve groups of four joined by colons.
 */
export function libtrustKeyId(publicKey: KeyObject): string {
  const digest = createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest().subarray(0, 30);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const byte of digest) bits += byte.toString(2).padStart(8, '0');
  const base32 = (bits.match(/.{5}/g) ?? []).map((group) => alphabet[parseInt(group, 2)]).join('');
  return (base32.match(/.{4}/g) ?? []).join(':');
}

function algorithmOf(key: KeyObject): SigningKey['algorithm'] {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  throw new Error(`the token signing key must be ECDSA P-256 or RSA, not ${String(key.asymmetricKeyType)} ${key.asymmetricKeyDetails?.namedCurve ?? ''}`.trim());
}

function pemCertificates(pem: string): X509Certificate[] {
  return (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((block) => new X509Certificate(block));
}

/** The key and certificate chain from PEM text; the first certificate must be the key's. */
export function loadSigningKey(keyPem: string, certificatePem: string): SigningKey {
  const privateKey = createPrivateKey(keyPem);
  const publicKey = createPublicKey(privateKey);
  const chain = pemCertificates(certificatePem);
  const first = chain[0];
  if (!first) throw new Error('the token certificate file holds no PEM certificate');
  if (!first.publicKey.equals(publicKey)) throw new Error("the token certificate is not the signing key's: its public key differs");
  return { privateKey, publicKey, algorithm: algorithmOf(privateKey), keyId: libtrustKeyId(publicKey), certificatePem, x5c: chain.map((certificate) => certificate.raw.toString('base64')) };
}

/** A fresh P-256 key with a self-signed certificate naming `issuer`. */
export function generateSigningKey(issuer: string, now: Date): SigningKey {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const certificatePem = selfSignedCertificate({ privateKey, commonName: issuer, notBefore: new Date(now.getTime() - 60_000), notAfter: new Date(now.getTime() + GENERATED_LIFETIME_MS) });
  return loadSigningKey(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), certificatePem);
}
