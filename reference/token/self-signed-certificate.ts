/**
 * A self-signed X.509 v3 certificate for the token service's signing key, built with node:crypto
 * alone (node can parse certificates but not make them). It is its own CA (basicConstraints cA), so
 * a registry can take it as its root certificate bundle and accept the `x5c` chain of one.
 */
import { createPublicKey, randomBytes, sign, type KeyObject } from 'node:crypto';
import { bitString, boolean, explicit, nullValue, objectIdentifier, octetString, sequence, set, time, unsignedInteger, utf8String } from './der.ts';

const OID = {
  commonName: '2.5.4.3',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
};

export interface CertificateRequest {
  privateKey: KeyObject;
  commonName: string;
  notBefore: Date;
  notAfter: Date;
}

function signatureAlgorithm(key: KeyObject): Buffer {
  if (key.asymmetricKeyType === 'ec') return sequence(objectIdentifier(OID.ecdsaWithSha256));
  if (key.asymmetricKeyType === 'rsa') return sequence(objectIdentifier(OID.sha256WithRsa), nullValue());
  throw new Error(`cannot sign a certificate with a ${String(key.asymmetricKeyType)} key: ECDSA P-256 or RSA only`);
}

function extension(oid: string, critical: boolean, value: Buffer): Buffer {
  return sequence(objectIdentifier(oid), boolean(critical), octetString(value));
}

/** The certificate in PEM. */
export function selfSignedCertificate({ privateKey, commonName, notBefore, notAfter }: CertificateRequest): string {
  const name = sequence(set(sequence(objectIdentifier(OID.commonName), utf8String(commonName))));
  const algorithm = signatureAlgorithm(privateKey);
  const publicKeyInfo = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  const tbs = sequence(
    explicit(0, unsignedInteger(Buffer.from([2]))),
    unsignedInteger(serial),
    algorithm,
    name,
    sequence(time(notBefore), time(notAfter)),
    name,
    publicKeyInfo,
    explicit(
      3,
      sequence(
        extension(OID.basicConstraints, true, sequence(boolean(true))),
        // digitalSignature (bit 0) and keyCertSign (bit 5): 0b10000100, the 2 unused low bits declared
        extension(OID.keyUsage, true, Buffer.from([0x03, 0x02, 0x02, 0x84])),
      ),
    ),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = sequence(tbs, algorithm, bitString(signature));
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
