/**
 * The token service over node:http: `POST /token` with the form of spec/3 §2.1, `GET /token` with HTTP
 * Basic as dockerd sends it at `docker login`, pull and push (`service`, repeated `scope`,
 * `offline_token`, `client_id`, `account`), and `POST /revoke` (RFC 7009) for refresh tokens.
 * Answers are JSON, never cached (RFC 6749 §5.1); errors are RFC 6749 §5.2 bodies.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { guardedListener, logBug, STDERR_LOG, type BugLog } from '../../request-pipeline.ts';
import { admitRequest, splitTarget, answerClientErrors, readBody, RequestLimitError, resolveLimits, serverOptions, type RequestLimits } from '../../request-limits.ts';
import { OAuthError } from '../oauth-error.ts';
import type { GrantRequest, IssuedToken, TokenIssuer } from '../token-issuer.ts';
import { parseAuthorization } from './authorization-header.ts';

const FORM = /^application\/x-www-form-urlencoded\b/i;
/** what GET /token's clients are called when they give no client_id (dockerd always gives one) */
const UNNAMED_CLIENT = 'unnamed-client';
const FIELDS: Record<string, keyof GrantRequest> = {
  grant_type: 'grantType',
  service: 'service',
  client_id: 'clientId',
  access_type: 'accessType',
  scope: 'scope',
  refresh_token: 'refreshToken',
  username: 'username',
  password: 'password',
};

function send(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', Pragma: 'no-cache', 'Content-Length': Buffer.byteLength(body), ...headers });
  response.end(body);
}

function tokenBody(issued: IssuedToken): Record<string, unknown> {
  return {
    access_token: issued.accessToken,
    // docker's GET /token clients read `token`, its OAuth clients `access_token`: the same token under both names
    token: issued.accessToken,
    scope: issued.scope,
    expires_in: issued.expiresIn,
    issued_at: issued.issuedAt.toISOString(),
    ...(issued.refreshToken ? { refresh_token: issued.refreshToken } : {}),
  };
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  if (!FORM.test(request.headers['content-type'] ?? '')) throw new OAuthError('invalid_request', 'the body must be application/x-www-form-urlencoded');
  return new URLSearchParams((await readBody(request, 'form')).toString('utf8'));
}

/** RFC 6749 §3.2: every parameter at most once. */
function grantFromForm(form: URLSearchParams): GrantRequest {
  const grant: GrantRequest = {};
  for (const [field, key] of Object.entries(FIELDS)) {
    const values = form.getAll(field);
    if (values.length > 1) throw new OAuthError('invalid_request', `${field} is given ${values.length} times`);
    if (values[0] !== undefined) grant[key] = values[0];
  }
  return grant;
}

async function postToken(issuer: TokenIssuer, request: IncomingMessage, response: ServerResponse): Promise<void> {
  send(response, 200, tokenBody(await issuer.grant(grantFromForm(await readForm(request)))));
}

async function getToken(issuer: TokenIssuer, request: IncomingMessage, response: ServerResponse, query: URLSearchParams): Promise<void> {
  const credentials = parseAuthorization(request.headers.authorization);
  const scope = query.getAll('scope').join(' ');
  const service = query.get('service') ?? undefined;
  if (credentials === undefined) {
    send(response, 200, tokenBody(issuer.anonymous({ service, scope })));
    return;
  }
  if (credentials === 'malformed' || credentials.scheme !== 'basic') throw new OAuthError('invalid_request', 'GET /token takes HTTP Basic credentials');
  const account = query.get('account');
  if (account !== null && account !== credentials.username) throw new OAuthError('invalid_request', 'account differs from the user name of the credentials');
  try {
    const issued = await issuer.grant({
      grantType: 'password',
      service,
      clientId: query.get('client_id') ?? UNNAMED_CLIENT,
      accessType: query.get('offline_token') === 'true' ? 'offline' : 'online',
      scope,
      username: credentials.username,
      password: credentials.password,
    });
    send(response, 200, tokenBody(issued));
  } catch (error) {
    // Basic credentials that fail are an authentication failure of this request: 401, as dockerd expects at login.
    if (error instanceof OAuthError && error.code === 'invalid_grant') throw new OAuthError('invalid_grant', error.description, 401);
    throw error;
  }
}

async function postRevoke(issuer: TokenIssuer, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const token = (await readForm(request)).get('token');
  if (!token) throw new OAuthError('invalid_request', 'token is required');
  // RFC 7009 §2.2: the same answer whether the token was known or not.
  issuer.revoke(token);
  response.writeHead(200, { 'Content-Length': 0, 'Cache-Control': 'no-store' });
  response.end();
}

async function handle(issuer: TokenIssuer, limits: RequestLimits, log: BugLog, request: IncomingMessage, response: ServerResponse): Promise<void> {
  try {
    const refusal = admitRequest(request, limits);
    if (refusal) throw refusal;
    const url = splitTarget(request.url ?? '/');
    const route = `${request.method ?? ''} ${url.pathname}`;
    if (route === 'POST /token') await postToken(issuer, request, response);
    else if (route === 'GET /token') await getToken(issuer, request, response, url.searchParams);
    else if (route === 'POST /revoke') await postRevoke(issuer, request, response);
    else if (url.pathname === '/token' || url.pathname === '/revoke') send(response, 405, { error: 'invalid_request', error_description: `${request.method ?? ''} is not allowed here` });
    else send(response, 404, { error: 'invalid_request', error_description: `no such endpoint ${url.pathname}` });
  } catch (error) {
    if (error instanceof RequestLimitError) {
      // The rest of a refused body is never read: the connection closes after the answer.
      send(response, error.status, { error: 'invalid_request', error_description: error.message }, { Connection: 'close' });
      return;
    }
    if (!(error instanceof OAuthError)) {
      logBug(log, 'token', request, error);
      send(response, 500, { error: 'server_error', error_description: (error as Error).message });
      return;
    }
    const challenge = error.status === 401 ? { 'WWW-Authenticate': 'Basic realm="token"' } : undefined;
    send(response, error.status, { error: error.code, error_description: error.description }, challenge);
  }
}

export interface TokenServerOptions {
  /** what one request may cost (defaults: DEFAULT_LIMITS; forms are held to formBodyBytes) */
  limits?: Partial<RequestLimits>;
  /** where the server's own bugs are logged (default: stderr) */
  log?: BugLog;
}

export function createTokenServer(issuer: TokenIssuer, { limits, log = STDERR_LOG }: TokenServerOptions = {}): Server {
  const resolved = resolveLimits(limits);
  const server = createServer(serverOptions(resolved), guardedListener('token', log, (request, response) => handle(issuer, resolved, log, request, response)));
  answerClientErrors(server, resolved);
  return server;
}
