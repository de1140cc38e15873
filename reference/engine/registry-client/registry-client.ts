/**
 * The engine's outbound HTTP to registries, as dockerd's distribution client does it: GET /v2/, and
 * on a 401 `Bearer` challenge the token dance — a token from the challenge's realm for the scope
 * wanted (HTTP Basic with `account` for a password, a `refresh_token` grant for an identity token,
 * nothing for anonymous access), then every request with that bearer token; a registry token the
 * client gave is that bearer token, with no dance. Only registries on the loopback are reached
 * (plain HTTP, as dockerd treats 127.0.0.0/8 as insecure); any other host is unreachable, as on a
 * daemon without network.
 */
import {
  RegistryRefusal,
  RegistryUnauthorizedError,
  RegistryUnreachableError,
  type FetchedManifest,
  type Registries,
  type RegistryCredentials,
  type RegistryRepository,
} from '../model/images/image-registry.ts';
import { EngineError } from '../model/common/errors.ts';
import { bearerChallenge, type BearerChallenge } from './challenge-header.ts';

/** dockerd's client id at the token service */
const CLIENT_ID = 'docker';
/** the manifest types a pull accepts, as dockerd 20.10 lists them */
const MANIFEST_ACCEPT = [
  'application/vnd.docker.distribution.manifest.v2+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.oci.image.index.v1+json',
].join(', ');

export class HttpRegistries implements Registries {
  async open(host: string, path: string, actions: ReadonlyArray<'pull' | 'push'>, credentials: RegistryCredentials): Promise<RegistryRepository> {
    const base = baseUrl(host);
    const challenge = await ping(base);
    const url = `${base}/v2/${path}`;
    if (challenge === undefined) return new HttpRegistryRepository(url, undefined);
    const token = credentials.registryToken || (await fetchToken(base, challenge, credentials, { scope: `repository:${path}:${actions.join(',')}`, offline: false })).accessToken;
    return new HttpRegistryRepository(url, token);
  }

  async login(host: string, credentials: RegistryCredentials): Promise<string> {
    const base = baseUrl(host);
    const challenge = await ping(base);
    if (challenge === undefined) return '';
    const token = await fetchToken(base, challenge, credentials, { offline: true });
    return token.refreshToken ?? '';
  }
}

class HttpRegistryRepository implements RegistryRepository {
  constructor(
    private readonly url: string,
    private readonly token: string | undefined,
  ) {}

  async manifest(reference: string): Promise<FetchedManifest> {
    const answer = await this.request('GET', `/manifests/${reference}`, { headers: { accept: MANIFEST_ACCEPT } });
    const body = Buffer.from(await answer.arrayBuffer());
    return { mediaType: (answer.headers.get('content-type') ?? '').split(';')[0] ?? '', body, digest: answer.headers.get('docker-content-digest') ?? '' };
  }

  async blob(digest: string): Promise<Buffer> {
    return Buffer.from(await (await this.request('GET', `/blobs/${digest}`)).arrayBuffer());
  }

  async hasBlob(digest: string): Promise<boolean> {
    const answer = await this.send('HEAD', `/blobs/${digest}`);
    if (answer.status === 404) return false;
    await checked(answer, `${this.url}/blobs/${digest}`);
    return true;
  }

  /** As dockerd pushes a layer: POST for an upload, then the whole blob in one PATCH, then PUT with the digest. */
  async putBlob(digest: string, content: Buffer): Promise<void> {
    const started = await this.request('POST', '/blobs/uploads/');
    const patched = await this.request('PATCH', '', { url: this.location(started), body: content, headers: { 'content-type': 'application/octet-stream' } });
    const location = new URL(this.location(patched));
    location.searchParams.set('digest', digest);
    await this.request('PUT', '', { url: location.href });
  }

  async putManifest(tag: string, mediaType: string, body: Buffer): Promise<string> {
    const answer = await this.request('PUT', `/manifests/${tag}`, { body, headers: { 'content-type': mediaType } });
    return answer.headers.get('docker-content-digest') ?? '';
  }

  private location(answer: Response): string {
    return new URL(answer.headers.get('location') ?? '', this.url).href;
  }

  private async request(method: string, path: string, options: { url?: string; body?: Buffer; headers?: Record<string, string> } = {}): Promise<Response> {
    const url = options.url ?? `${this.url}${path}`;
    return checked(await this.send(method, path, options), url);
  }

  private async send(method: string, path: string, options: { url?: string; body?: Buffer; headers?: Record<string, string> } = {}): Promise<Response> {
    const url = options.url ?? `${this.url}${path}`;
    const headers = { ...options.headers, ...(this.token !== undefined && { authorization: `Bearer ${this.token}` }) };
    return reach(url, { method, headers, ...(options.body !== undefined && { body: new Uint8Array(options.body) }) });
  }
}

/** The registry's URL: plain HTTP on the loopback; any other host cannot be reached. */
function baseUrl(host: string): string {
  if (!/^(?:127\.\d+\.\d+\.\d+|localhost)(?::\d+)?$/.test(host)) throw new RegistryUnreachableError(`https://${host}/v2/`);
  return `http://${host}`;
}

/** GET /v2/: undefined when the registry needs no token, its Bearer challenge when it does. */
async function ping(base: string): Promise<BearerChallenge | undefined> {
  const answer = await reach(`${base}/v2/`, { method: 'GET' });
  await answer.arrayBuffer();
  if (answer.status === 200) return undefined;
  const challenge = answer.status === 401 ? bearerChallenge(answer.headers.get('www-authenticate') ?? '') : undefined;
  if (challenge === undefined) throw new EngineError(`Get "${base}/v2/": unexpected status ${answer.status} and no Bearer challenge`);
  return challenge;
}

interface Token {
  accessToken: string;
  refreshToken?: string;
}

/**
 * A token for `scope` from the challenge's realm. With an identity token: a refresh_token grant
 * (POST, form). With a password: GET with HTTP Basic, `offline_token=true` when logging in (which
 * asks for a refresh token, the identity token the login returns). Without either: anonymous GET.
 */
async function fetchToken(base: string, challenge: BearerChallenge, credentials: RegistryCredentials, request: { scope?: string; offline: boolean }): Promise<Token> {
  const scope = request.scope ?? challenge.scope;
  let answer: Response;
  if (credentials.identityToken) {
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: credentials.identityToken, client_id: CLIENT_ID, service: challenge.service, ...(scope && { scope }), ...(request.offline && { access_type: 'offline' }) });
    answer = await reach(challenge.realm, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  } else {
    const url = new URL(challenge.realm);
    if (credentials.username) url.searchParams.set('account', credentials.username);
    url.searchParams.set('client_id', CLIENT_ID);
    if (request.offline) url.searchParams.set('offline_token', 'true');
    url.searchParams.set('service', challenge.service);
    if (scope) url.searchParams.set('scope', scope);
    const basic = credentials.username ? { authorization: `Basic ${Buffer.from(`${credentials.username}:${credentials.password ?? ''}`).toString('base64')}` } : undefined;
    answer = await reach(url.href, { method: 'GET', headers: basic });
  }
  const text = await answer.text();
  // dockerd words a refused token request as the refusal of the request that needed it
  if (answer.status !== 200) throw new RegistryUnauthorizedError(`Get "${base}/v2/": unauthorized: ${refusalDetail(text)}`);
  const body = JSON.parse(text) as { token?: string; access_token?: string; refresh_token?: string };
  const accessToken = body.access_token ?? body.token;
  if (!accessToken) throw new RegistryUnauthorizedError(`Get "${base}/v2/": unauthorized: the token service answered no token`);
  return { accessToken, ...(body.refresh_token && { refreshToken: body.refresh_token }) };
}

/** The token service's reason (`error_description`, `details`), else distribution's default words. */
function refusalDetail(text: string): string {
  try {
    const body = JSON.parse(text) as { error_description?: unknown; details?: unknown };
    const detail = body.error_description ?? body.details;
    if (typeof detail === 'string' && detail !== '') return detail;
  } catch {
    // not JSON: the default words
  }
  return 'authentication required';
}

/** A fetch whose failure to connect reads as dockerd's dial error. */
async function reach(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    const host = new URL(url).host;
    throw new EngineError(`Get "${new URL('/v2/', url).href}": dial tcp ${host}: connect: ${cause?.code === 'ECONNREFUSED' ? 'connection refused' : (cause?.code ?? 'failed')}`);
  }
}

/** A 2xx answer through; a 401 as unauthorized; any other error as the registry's first error code. */
async function checked(answer: Response, url: string): Promise<Response> {
  if (answer.ok) return answer;
  const text = await answer.text();
  if (answer.status === 401) throw new RegistryUnauthorizedError(`unauthorized: ${firstError(text)?.message ?? 'authentication required'}`);
  const error = firstError(text);
  if (error === undefined) throw new EngineError(`${url}: unexpected status ${answer.status}`);
  throw new RegistryRefusal(error.code, error.message);
}

function firstError(text: string): { code: string; message: string } | undefined {
  try {
    const first = (JSON.parse(text) as { errors?: Array<{ code?: unknown; message?: unknown }> }).errors?.[0];
    if (typeof first?.code === 'string') return { code: first.code, message: typeof first.message === 'string' ? first.message : '' };
  } catch {
    // not distribution's error body
  }
  return undefined;
}
