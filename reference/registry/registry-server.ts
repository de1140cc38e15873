/**
 * The fixture registry's HTTP: distribution's v2 API (spec/3's resource server) over node:http, thin
 * over RegistryStorage. Every request needs a bearer token from the trusted token service; without
 * one, or with one that does not grant what the request needs, it answers 401 with the challenge
 * that sends a client to the token service for the scope it needs.
 */
import { Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { buffer } from 'node:stream/consumers';
import type { VerifiedAccess } from '../token/access-token-verifier.ts';
import { grants, trustedTokens, type TokenTrust } from './access-token.ts';
import { RegistryError } from './registry-errors.ts';
import type { RegistryStorage } from './registry-storage.ts';

export interface RegistryServerOptions {
  storage: RegistryStorage;
  trust: TokenTrust;
  /** where the challenge sends clients for a token: the token service's token endpoint */
  realm: string;
  clock?: () => Date;
}

const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const REPOSITORY_PATH = new RegExp(`^/v2/(${COMPONENT}(?:/${COMPONENT})*)/(blobs/uploads/?(.*)|blobs/([^/]+)|manifests/([^/]+)|tags/list)$`);

type Access = 'pull' | 'push';

interface RegistryRequest {
  request: IncomingMessage;
  response: ServerResponse;
  storage: RegistryStorage;
  repository: string;
  query: URLSearchParams;
}

export function createRegistryServer(options: RegistryServerOptions): Server {
  const verifier = trustedTokens(options.trust, options.clock);
  return new Server((request, response) => {
    response.setHeader('Docker-Distribution-API-Version', 'registry/2.0');
    void handle(request, response, options, verifier).catch((error: unknown) => {
      if (error instanceof RegistryError) return sendErrors(response, error);
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain' });
      response.end(String(error));
    });
  });
}

async function handle(request: IncomingMessage, response: ServerResponse, options: RegistryServerOptions, verifier: (token: string) => VerifiedAccess | undefined): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://registry');
  const method = request.method ?? 'GET';
  if (url.pathname === '/v2/' || url.pathname === '/v2') {
    if (!authorized(request, response, options, verifier, undefined)) return;
    return sendJson(response, 200, {});
  }
  const match = REPOSITORY_PATH.exec(url.pathname);
  if (match === null) throw new RegistryError('NAME_INVALID', { path: url.pathname });
  const [, repository = '', target = '', uploadId, blobDigest, manifestReference] = match;
  const needs: Access[] = method === 'GET' || method === 'HEAD' ? ['pull'] : ['pull', 'push'];
  if (!authorized(request, response, options, verifier, { repository, needs })) return;
  const context: RegistryRequest = { request, response, storage: options.storage, repository, query: url.searchParams };
  if (uploadId !== undefined) return upload(context, method, uploadId);
  if (blobDigest !== undefined) return blob(context, method, blobDigest);
  if (manifestReference !== undefined) return manifest(context, method, manifestReference);
  if (target === 'tags/list' && method === 'GET') return sendJson(response, 200, { name: repository, tags: options.storage.tags(repository) });
  throw new RegistryError('UNSUPPORTED');
}

/** The token's claims must cover each action; otherwise 401 with the challenge for them. */
function authorized(
  request: IncomingMessage,
  response: ServerResponse,
  options: RegistryServerOptions,
  verifier: (token: string) => VerifiedAccess | undefined,
  resource: { repository: string; needs: Access[] } | undefined,
): boolean {
  const scope = resource && `repository:${resource.repository}:${resource.needs.join(',')}`;
  const challenge = (error?: string) =>
    [`Bearer realm="${options.realm}"`, `service="${options.trust.service}"`, ...(scope ? [`scope="${scope}"`] : []), ...(error ? [`error="${error}"`] : [])].join(',');
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  if (bearer === undefined) {
    response.setHeader('WWW-Authenticate', challenge());
    sendErrors(response, new RegistryError('UNAUTHORIZED', scope ? [{ Type: 'repository', Name: resource?.repository, Action: resource?.needs[0] }] : null));
    return false;
  }
  const claims = verifier(bearer);
  if (claims === undefined) {
    response.setHeader('WWW-Authenticate', challenge('invalid_token'));
    sendErrors(response, new RegistryError('UNAUTHORIZED', 'invalid token'));
    return false;
  }
  const missing = resource?.needs.find((action) => !grants(claims, 'repository', resource.repository, action));
  if (resource && missing !== undefined) {
    response.setHeader('WWW-Authenticate', challenge('insufficient_scope'));
    sendErrors(response, new RegistryError('UNAUTHORIZED', [{ Type: 'repository', Name: resource.repository, Action: missing }]));
    return false;
  }
  return true;
}

/** POST starts an upload (or takes the whole blob with `digest`, or mounts one with `mount`/`from`); PATCH appends; PUT completes. */
async function upload({ request, response, storage, repository, query }: RegistryRequest, method: string, id: string): Promise<void> {
  const digest = query.get('digest');
  if (method === 'POST' && id === '') {
    const mount = query.get('mount');
    if (mount !== null && storage.mountBlob(repository, mount, query.get('from') ?? '')) return blobCreated(response, repository, mount);
    if (digest !== null) {
      storage.putBlob(repository, digest, await buffer(request));
      return blobCreated(response, repository, digest);
    }
    return uploadAccepted(response, repository, storage.startUpload(repository), 0);
  }
  if (method === 'PATCH') return uploadAccepted(response, repository, id, storage.appendToUpload(repository, id, await buffer(request)));
  if (method === 'PUT') {
    if (digest === null) throw new RegistryError('DIGEST_INVALID', 'digest missing');
    storage.completeUpload(repository, id, digest, await buffer(request));
    return blobCreated(response, repository, digest);
  }
  if (method === 'GET') {
    const size = storage.uploadedSize(repository, id);
    response.writeHead(204, { Location: uploadLocation(repository, id), Range: `0-${Math.max(size - 1, 0)}`, 'Docker-Upload-UUID': id, 'Content-Length': 0 });
    return void response.end();
  }
  if (method === 'DELETE') {
    storage.cancelUpload(repository, id);
    response.writeHead(204, { 'Content-Length': 0 });
    return void response.end();
  }
  throw new RegistryError('UNSUPPORTED');
}

function blob({ response, storage, repository }: RegistryRequest, method: string, digest: string): void {
  if (method !== 'GET' && method !== 'HEAD') throw new RegistryError('UNSUPPORTED');
  const content = storage.blob(repository, digest);
  response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': content.length, 'Docker-Content-Digest': digest });
  response.end(method === 'GET' ? content : undefined);
}

async function manifest({ request, response, storage, repository }: RegistryRequest, method: string, reference: string): Promise<void> {
  if (method === 'PUT') {
    const mediaType = (request.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
    const digest = storage.putManifest(repository, reference, mediaType, await buffer(request));
    response.writeHead(201, { Location: `/v2/${repository}/manifests/${digest}`, 'Docker-Content-Digest': digest, 'Content-Length': 0 });
    return void response.end();
  }
  if (method !== 'GET' && method !== 'HEAD') throw new RegistryError('UNSUPPORTED');
  const stored = storage.manifest(repository, reference);
  response.writeHead(200, { 'Content-Type': stored.mediaType, 'Content-Length': stored.body.length, 'Docker-Content-Digest': stored.digest, Etag: `"${stored.digest}"` });
  response.end(method === 'GET' ? stored.body : undefined);
}

function uploadLocation(repository: string, id: string): string {
  return `/v2/${repository}/blobs/uploads/${id}`;
}

function uploadAccepted(response: ServerResponse, repository: string, id: string, size: number): void {
  response.writeHead(202, { Location: uploadLocation(repository, id), Range: `0-${Math.max(size - 1, 0)}`, 'Docker-Upload-UUID': id, 'Content-Length': 0 });
  response.end();
}

function blobCreated(response: ServerResponse, repository: string, digest: string): void {
  response.writeHead(201, { Location: `/v2/${repository}/blobs/${digest}`, 'Docker-Content-Digest': digest, 'Content-Length': 0 });
  response.end();
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

function sendErrors(response: ServerResponse, error: RegistryError): void {
  if (response.headersSent) return void response.destroy(error);
  sendJson(response, error.status, { errors: [{ code: error.code, message: error.message, detail: error.detail }] });
}
