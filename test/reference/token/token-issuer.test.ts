/**
 * The token service's rules without HTTP, on an injected clock: grants, refresh tokens (same one back,
 * bound to service, kept only as digests, revocable), the JWT a distribution registry reads (alg, kid,
 * x5c, claims), and expiry as a resource server sees it.
 */
import { X509Certificate, createHash, generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { AccessTokenVerifier } from '../../../reference/token/access-token-verifier.ts';
import { signJwt } from '../../../reference/token/jwt.ts';
import { OAuthError } from '../../../reference/token/oauth-error.ts';
import { selfSignedCertificate } from '../../../reference/token/self-signed-certificate.ts';
import { generateSigningKey, libtrustKeyId, loadSigningKey, type SigningKey } from '../../../reference/token/signing-key.ts';
import { TokenIssuer, type GrantRequest } from '../../../reference/token/token-issuer.ts';
import { UserStore } from '../../../reference/users/user-store.ts';

const ALICE = { username: 'alice', password: 'alice-secret-1', email: 'alice@example.org', access: [{ type: 'repository', name: 'alice/*', actions: ['pull', 'push'] }] };
const SERVICE = 'registry.test';
const ISSUER = 'issuer.test';

let users: UserStore;
let key: SigningKey;
let now: Date;
const clock = () => now;

beforeAll(async () => {
  users = await UserStore.create([ALICE], { wait: async () => {} });
  key = generateSigningKey(ISSUER, new Date());
});

function issuer(expiresIn?: number): TokenIssuer {
  now = new Date('2026-03-01T12:00:00Z');
  return new TokenIssuer({ users, key, issuer: ISSUER, clock, ...(expiresIn === undefined ? {} : { expiresIn }) });
}

const password = (extra: GrantRequest = {}): GrantRequest => ({ grantType: 'password', service: SERVICE, clientId: 'tests', username: 'alice', password: ALICE.password, ...extra });

async function refused(promise: Promise<unknown>): Promise<OAuthError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(OAuthError);
  return error as OAuthError;
}

function decode(token: string): { header: Record<string, unknown>; claims: Record<string, unknown> } {
  const [header = '', claims = ''] = token.split('.');
  return { header: JSON.parse(Buffer.from(header, 'base64url').toString()), claims: JSON.parse(Buffer.from(claims, 'base64url').toString()) };
}

describe('grants', () => {
  test('password: an access token with the granted subset, expires_in and issued_at from the clock; online gives no refresh token', async () => {
    const issued = await issuer().grant(password({ scope: 'repository:alice/app:pull,delete repository:bob/app:pull' }));
    expect(issued.scope).toBe('repository:alice/app:pull');
    expect(issued.expiresIn).toBe(300);
    expect(issued.issuedAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(issued.refreshToken).toBeUndefined();
  });

  test('a glob grants only names of the grammar: no `..` past its prefix, no literal `*`, nothing over 255 characters', async () => {
    const granted = async (name: string) => (await issuer().grant(password({ scope: `repository:${name}:push` }))).scope;
    expect(await granted('alice/app')).toBe('repository:alice/app:push');
    expect(await granted('alice/team/app-2')).toBe('repository:alice/team/app-2:push');
    expect(await granted('alice/../bob/app')).toBe('');
    expect(await granted('alice/./app')).toBe('');
    expect(await granted('alice/*')).toBe('');
    expect(await granted('alice/App')).toBe('');
    expect(await granted(`alice/${'a'.repeat(250)}`)).toBe('');
  });

  test('expires_in is never under 60', () => {
    expect(issuer(5).expiresIn).toBe(60);
  });

  test('offline: a refresh token; the refresh grant gives that same token back, never another', async () => {
    const tokens = issuer();
    const { refreshToken } = await tokens.grant(password({ accessType: 'offline' }));
    expect(refreshToken).toMatch(/^[A-Za-z0-9_-]{64}$/);
    const again = await tokens.grant({ grantType: 'refresh_token', service: SERVICE, clientId: 'tests', refreshToken, accessType: 'offline', scope: 'repository:alice/x:push' });
    expect(again.refreshToken).toBe(refreshToken);
    expect(again.scope).toBe('repository:alice/x:push');
    expect(decode(again.accessToken).claims.sub).toBe('alice');
    const online = await tokens.grant({ grantType: 'refresh_token', service: SERVICE, clientId: 'tests', refreshToken });
    expect(online.refreshToken).toBeUndefined();
  });

  test('refresh tokens are bound to their service, kept only as SHA-256 digests, and revocable', async () => {
    const tokens = issuer();
    const { refreshToken = '' } = await tokens.grant(password({ accessType: 'offline' }));
    expect((await refused(tokens.grant({ grantType: 'refresh_token', service: 'other', clientId: 'tests', refreshToken }))).code).toBe('invalid_grant');
    const stored = JSON.stringify(tokens.refreshTokens.stored());
    expect(stored).not.toContain(refreshToken);
    expect(stored).toContain(createHash('sha256').update(refreshToken).digest('hex'));
    expect(tokens.revoke(refreshToken)).toBe(true);
    expect((await refused(tokens.grant({ grantType: 'refresh_token', service: SERVICE, clientId: 'tests', refreshToken }))).code).toBe('invalid_grant');
  });

  test.each([
    [{ grantType: 'authorization_code' }, 'unsupported_grant_type'],
    [{ grantType: 'client_credentials' }, 'unsupported_grant_type'],
    [{ grantType: undefined }, 'invalid_request'],
    [{ service: '' }, 'invalid_request'],
    [{ clientId: undefined }, 'invalid_request'],
    [{ clientId: 'tab\there' }, 'invalid_request'],
    [{ accessType: 'forever' }, 'invalid_request'],
    [{ scope: 'repository:alice' }, 'invalid_scope'],
    [{ password: 'wrong' }, 'invalid_grant'],
    [{ username: 'nobody' }, 'invalid_grant'],
  ] as const)('%j is refused with %s, status 400', async (change, code) => {
    const error = await refused(issuer().grant(password(change)));
    expect([error.code, error.status]).toEqual([code, 400]);
  });
});

describe('access tokens', () => {
  test('a JWT as distribution reads it: ES256, libtrust kid, x5c of the certificate, claims iss sub aud exp nbf iat jti access', async () => {
    const { accessToken } = await issuer().grant(password({ scope: 'repository(plugin):alice/p:pull' }));
    const { header, claims } = decode(accessToken);
    expect(header).toEqual({ typ: 'JWT', alg: 'ES256', kid: key.keyId, x5c: [new X509Certificate(key.certificatePem).raw.toString('base64')] });
    expect(key.keyId).toMatch(/^([A-Z2-7]{4}:){11}[A-Z2-7]{4}$/);
    const iat = Date.parse('2026-03-01T12:00:00Z') / 1000;
    expect(claims).toEqual({ iss: ISSUER, sub: 'alice', aud: SERVICE, exp: iat + 300, nbf: iat, iat, jti: expect.stringMatching(/^[0-9a-f]{32}$/), access: [{ type: 'repository', class: 'plugin', name: 'alice/p', actions: ['pull'] }] });
    // ES256 signatures are r||s, 64 bytes
    expect(Buffer.from(accessToken.split('.')[2] ?? '', 'base64url')).toHaveLength(64);
  });

  test('a resource server takes the token until it expires, and never for another audience or after tampering', async () => {
    const tokens = issuer();
    const verifier = new AccessTokenVerifier(key, ISSUER, clock);
    const { accessToken, expiresIn } = await tokens.grant(password());
    expect(verifier.verify(accessToken, SERVICE)?.subject).toBe('alice');
    expect(verifier.verify(accessToken, 'other')).toBeUndefined();
    const [header, , signature] = accessToken.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...decode(accessToken).claims, sub: 'bob' })).toString('base64url')}.${signature}`;
    expect(verifier.verify(forged, SERVICE)).toBeUndefined();
    now = new Date(now.getTime() + (expiresIn - 1) * 1000);
    expect(verifier.verify(accessToken, SERVICE)).toBeDefined();
    now = new Date(now.getTime() + 1000);
    expect(verifier.verify(accessToken, SERVICE)).toBeUndefined();
  });

  test('a well-signed token whose access holds something we never issue (null, a name that is no string) is no token', () => {
    issuer();
    const verifier = new AccessTokenVerifier(key, ISSUER, clock);
    const iat = Math.floor(now.getTime() / 1000);
    const signed = (access: unknown[]) => signJwt(key, { iss: ISSUER, sub: 'alice', aud: SERVICE, exp: iat + 300, nbf: iat, iat, jti: 'j', access });
    expect(verifier.verify(signed([{ type: 'account', name: 'alice', actions: ['profile_read'] }]), SERVICE)?.subject).toBe('alice');
    expect(verifier.verify(signed([null]), SERVICE)).toBeUndefined();
    expect(verifier.verify(signed([{ type: 'account', name: 7, actions: ['profile_read'] }]), SERVICE)).toBeUndefined();
    expect(verifier.verify(signed([{ type: 'account', name: 'alice', actions: [null] }]), SERVICE)).toBeUndefined();
  });

  test('an RSA key signs RS256; its libtrust kid is of the public key; a certificate of another key is refused', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const certificate = selfSignedCertificate({ privateKey, commonName: 'rsa', notBefore: new Date(), notAfter: new Date(Date.now() + 3_600_000) });
    const rsa = loadSigningKey(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), certificate);
    expect(rsa.algorithm).toBe('RS256');
    expect(rsa.keyId).toBe(libtrustKeyId(new X509Certificate(certificate).publicKey));
    const tokens = new TokenIssuer({ users, key: rsa, issuer: ISSUER });
    const { accessToken } = await tokens.grant(password());
    expect(decode(accessToken).header.alg).toBe('RS256');
    expect(new AccessTokenVerifier(rsa, ISSUER).verify(accessToken, SERVICE)?.subject).toBe('alice');
    expect(() => loadSigningKey(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), key.certificatePem)).toThrow(/not the signing key's/);
  });

  test('the generated certificate is self-signed, a CA, valid now, and names the issuer', () => {
    const certificate = new X509Certificate(key.certificatePem);
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(certificate.ca).toBe(true);
    expect(certificate.subject).toBe(`CN=${ISSUER}`);
    expect(Date.parse(certificate.validFrom)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(certificate.validTo)).toBeGreaterThan(Date.now());
  });
});
