/** The fixture registry over HTTP: the bearer challenge, token checks, blob uploads (monolithic, chunked, mounted), manifests and tags. */
import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistryServer } from '../../../reference/registry/registry-server.ts';
import { RegistryStorage } from '../../../reference/registry/registry-storage.ts';
import { httpCaller, type Call } from '../http-client.ts';
import { createTestSigner } from './test-token-signer.ts';

const signer = createTestSigner();
const REALM = 'http://127.0.0.1:1/token';
let server: Server;
let call: Call;

const digestOf = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const pushToken = (name: string) => signer.sign([{ type: 'repository', name, actions: ['pull', 'push'] }]);

beforeAll(async () => {
  server = createRegistryServer({ storage: new RegistryStorage(), trust: signer, realm: REALM });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  call = httpCaller(`tcp://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the challenge', () => {
  it('sends a client without a token to the realm, naming the scope a push needs', async () => {
    const answer = await call('POST', '/v2/alice/app/blobs/uploads/');
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe(`Bearer realm="${REALM}",service="${signer.service}",scope="repository:alice/app:pull,push"`);
    expect(answer.json()).toMatchObject({ errors: [{ code: 'UNAUTHORIZED' }] });
  });

  it('names no scope on /v2/ and answers {} with a token', async () => {
    expect((await call('GET', '/v2/')).headers['www-authenticate']).toBe(`Bearer realm="${REALM}",service="${signer.service}"`);
    const answer = await call('GET', '/v2/', { headers: bearer(signer.sign([])) });
    expect([answer.status, answer.text, answer.headers['docker-distribution-api-version']]).toEqual([200, '{}', 'registry/2.0']);
  });

  it.each([
    ['expired', { exp: Math.floor(Date.now() / 1000) - 3600 }, 'invalid_token'],
    ['for another service', { aud: 'elsewhere' }, 'invalid_token'],
    ['from another issuer', { iss: 'mallory' }, 'invalid_token'],
  ])('refuses a token %s', async (_, claims, error) => {
    const token = signer.sign([{ type: 'repository', name: 'alice/app', actions: ['pull'] }], claims);
    const answer = await call('GET', '/v2/alice/app/tags/list', { headers: bearer(token) });
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toContain(`error="${error}"`);
  });

  it('refuses a token signed by another key', async () => {
    const other = createTestSigner({ issuer: signer.issuer, service: signer.service });
    const answer = await call('GET', '/v2/', { headers: bearer(other.sign([])) });
    expect(answer.status).toBe(401);
  });

  it('refuses a pull-only token a push', async () => {
    const token = signer.sign([{ type: 'repository', name: 'alice/app', actions: ['pull'] }]);
    const answer = await call('POST', '/v2/alice/app/blobs/uploads/', { headers: bearer(token) });
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toContain('error="insufficient_scope"');
  });

  it('refuses a token for another repository', async () => {
    const answer = await call('GET', '/v2/bob/app/tags/list', { headers: bearer(pushToken('alice/app')) });
    expect(answer.status).toBe(401);
  });
});

describe('a push and a pull', () => {
  const layer = Buffer.from('layer bytes '.repeat(100));
  const config = Buffer.from('{"architecture":"amd64","os":"linux"}');
  const manifestOf = () =>
    Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
        config: { mediaType: 'application/vnd.docker.container.image.v1+json', size: config.length, digest: digestOf(config) },
        layers: [{ mediaType: 'application/vnd.docker.image.rootfs.diff.tar.gzip', size: layer.length, digest: digestOf(layer) }],
      }),
    );

  it('takes a chunked upload, a monolithic one, a manifest by tag, and serves them back', async () => {
    const headers = bearer(pushToken('alice/app'));
    const started = await call('POST', '/v2/alice/app/blobs/uploads/', { headers });
    expect(started.status).toBe(202);
    const location = String(started.headers.location);
    const patched = await call('PATCH', location, { headers, body: layer.subarray(0, 500) });
    expect([patched.status, patched.headers.range]).toEqual([202, '0-499']);
    const completed = await call('PUT', `${location}?digest=${digestOf(layer)}`, { headers, body: layer.subarray(500) });
    expect([completed.status, completed.headers['docker-content-digest']]).toEqual([201, digestOf(layer)]);
    expect((await call('POST', `/v2/alice/app/blobs/uploads/?digest=${digestOf(config)}`, { headers, body: config })).status).toBe(201);

    const manifest = manifestOf();
    const put = await call('PUT', '/v2/alice/app/manifests/v1', { headers: { ...headers, 'content-type': 'application/vnd.docker.distribution.manifest.v2+json' }, body: manifest });
    expect([put.status, put.headers['docker-content-digest']]).toEqual([201, digestOf(manifest)]);

    const pulled = await call('GET', '/v2/alice/app/manifests/v1', { headers });
    expect([pulled.status, pulled.headers['content-type'], pulled.text]).toEqual([200, 'application/vnd.docker.distribution.manifest.v2+json', manifest.toString()]);
    expect((await call('GET', `/v2/alice/app/blobs/${digestOf(layer)}`, { headers })).body.equals(layer)).toBe(true);
    expect((await call('GET', '/v2/alice/app/tags/list', { headers })).json()).toEqual({ name: 'alice/app', tags: ['v1'] });
  });

  it('mounts a blob from a repository that holds it, and not from one that does not', async () => {
    const headers = bearer(pushToken('alice/copy'));
    const mounted = await call('POST', `/v2/alice/copy/blobs/uploads/?mount=${digestOf(layer)}&from=alice/app`, { headers });
    expect(mounted.status).toBe(201);
    const unmounted = await call('POST', `/v2/alice/copy/blobs/uploads/?mount=${digestOf(layer)}&from=alice/none`, { headers });
    expect(unmounted.status).toBe(202);
  });

  it('refuses a blob whose digest does not match, and a manifest naming a blob it lacks', async () => {
    const headers = bearer(pushToken('alice/bad'));
    const wrong = await call('POST', `/v2/alice/bad/blobs/uploads/?digest=${digestOf(Buffer.from('other'))}`, { headers, body: layer });
    expect(wrong.json()).toMatchObject({ errors: [{ code: 'DIGEST_INVALID' }] });
    const put = await call('PUT', '/v2/alice/bad/manifests/v1', { headers: { ...headers, 'content-type': 'application/vnd.docker.distribution.manifest.v2+json' }, body: manifestOf() });
    expect([put.status, put.json()]).toMatchObject([400, { errors: [{ code: 'MANIFEST_BLOB_UNKNOWN' }] }]);
  });

  it('answers 404 MANIFEST_UNKNOWN for an absent tag and NAME_UNKNOWN for an absent repository', async () => {
    const headers = bearer(pushToken('alice/app'));
    expect((await call('GET', '/v2/alice/app/manifests/absent', { headers })).json()).toMatchObject({ errors: [{ code: 'MANIFEST_UNKNOWN' }] });
    const none = await call('GET', '/v2/alice/none/tags/list', { headers: bearer(pushToken('alice/none')) });
    expect([none.status, none.json()]).toMatchObject([404, { errors: [{ code: 'NAME_UNKNOWN' }] }]);
  });
});
