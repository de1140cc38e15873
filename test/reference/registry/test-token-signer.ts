/**
 * A stand-in for the token service in registry tests: a key and self-signed certificate made with
 * openssl, and JWTs signed as the token service signs them (ES256 for P-256, RS256 for RSA; `kid`
 * and `x5c` in the header), with any claim overridable to make a bad token.
 */
import { execFileSync } from 'node:child_process';
import { createPrivateKey, randomUUID, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AccessEntry } from '../../../reference/registry/access-token.ts';

export interface TestSigner {
  issuer: string;
  service: string;
  certificatePem: string;
  /** a token for `access`, valid for five minutes from now unless `claims` says otherwise */
  sign(access: AccessEntry[], claims?: Record<string, unknown>): string;
}

export function createTestSigner(options: { issuer?: string; service?: string; key?: 'ec' | 'rsa' } = {}): TestSigner {
  const issuer = options.issuer ?? 'test-issuer';
  const service = options.service ?? 'test-registry';
  const directory = mkdtempSync(path.join(tmpdir(), 'shipshape-signer-'));
  try {
    const keyFile = path.join(directory, 'key.pem');
    const certFile = path.join(directory, 'cert.pem');
    const newKey = options.key === 'rsa' ? ['-newkey', 'rsa:2048'] : ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'];
    execFileSync('openssl', ['req', '-x509', ...newKey, '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', `/CN=${issuer}`], { stdio: 'ignore' });
    const key = createPrivateKey(readFileSync(keyFile));
    const certificatePem = readFileSync(certFile, 'utf8');
    return { issuer, service, certificatePem, sign: (access, claims = {}) => signToken(key, certificatePem, { iss: issuer, aud: service, access, ...claims }) };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

function signToken(key: KeyObject, certificatePem: string, claims: Record<string, unknown>): string {
  const ec = key.asymmetricKeyType === 'ec';
  const der = new X509Certificate(certificatePem).raw;
  const now = Math.floor(Date.now() / 1000);
  const header = { typ: 'JWT', alg: ec ? 'ES256' : 'RS256', kid: 'test', x5c: [der.toString('base64')] };
  const payload = { sub: 'alice', exp: now + 300, nbf: now - 1, iat: now, jti: randomUUID(), ...claims };
  const signed = `${encode(header)}.${encode(payload)}`;
  const signature = ec ? sign('sha256', Buffer.from(signed), { key, dsaEncoding: 'ieee-p1363' }) : sign('sha256', Buffer.from(signed), key);
  return `${signed}.${signature.toString('base64url')}`;
}

function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
