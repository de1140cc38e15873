/**
 * The accounts API over node:http (spec/3 §4, §5, §7): `/api/v1.1/users/:username/` GET and PATCH,
 * `…/emails/` GET, POST and DELETE. Every call is authenticated first (Basic against the users store,
 * or Bearer: an access token of our token service for its service, checked with the same key), then:
 * 401 bad or missing credentials, 404 unknown user, 403 another user or a token without the
 * operation's scope, 400 a body that breaks a rule, 404 an unknown address. Errors are `{"detail"}`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { guardedListener, logBug, STDERR_LOG, type BugLog } from '../../request-pipeline.ts';
import { admitRequest, splitTarget, answerClientErrors, readBody, RequestLimitError, resolveLimits, serverOptions, type RequestLimits } from '../../request-limits.ts';
import { ACCOUNT_SCOPE_TYPE } from '../../token/access-rules.ts';
import type { AccessTokenVerifier } from '../../token/access-token-verifier.ts';
import { parseAuthorization } from '../../token/http/authorization-header.ts';
import type { UserRecord, UserStore } from '../../users/user-store.ts';
import { addEmail, deleteEmail, listEmails, updateProfile, userView } from '../account-book.ts';
import { InvalidAccountChange, UnknownEmailAddress } from '../account-errors.ts';

export interface AccountsServerOptions {
  users: UserStore;
  verifier: AccessTokenVerifier;
  /** the `aud` a bearer token must carry: the token service's service name */
  audience: string;
  /** what one request may cost (defaults: DEFAULT_LIMITS; bodies are held to formBodyBytes) */
  limits?: Partial<RequestLimits>;
  /** where the server's own bugs are logged (default: stderr) */
  log?: BugLog;
}

class AccountsHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Operation = { scope: 'profile_read' | 'profile_write' | 'email_read' | 'email_write'; run: (user: UserRecord, body: () => Promise<Record<string, unknown>>) => Promise<[number, unknown]> };

const CHALLENGE = 'Basic realm="accounts", Bearer realm="accounts"';
const USER_PATH = /^\/api\/v1\.1\/users\/([^/]+)\/(emails\/)?$/;

function send(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  if (status === 204) {
    response.writeHead(204, headers);
    response.end();
    return;
  }
  const body = JSON.stringify(value);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  response.end(body);
}

/** A JSON object or a URL-encoded form; a body of any other type is refused (spec/3 §4: calls with a body need Content-Type). */
async function readObject(request: IncomingMessage): Promise<Record<string, unknown>> {
  const text = (await readBody(request, 'form')).toString('utf8');
  if (text.trim() === '') return {};
  const contentType = request.headers['content-type'] ?? '';
  if (/^application\/x-www-form-urlencoded\b/i.test(contentType)) return Object.fromEntries(new URLSearchParams(text));
  if (!/^application\/json\b/i.test(contentType)) throw new AccountsHttpError(400, 'the body needs Content-Type application/json or application/x-www-form-urlencoded');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AccountsHttpError(400, 'the body is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new AccountsHttpError(400, 'the body must be a JSON object');
  return parsed as Record<string, unknown>;
}

const OPERATIONS: Record<string, Operation> = {
  'GET user': { scope: 'profile_read', run: async (user) => [200, user] },
  'PATCH user': {
    scope: 'profile_write',
    run: async (user, body) => {
      updateProfile(user, await body());
      return [200, user];
    },
  },
  'GET emails': { scope: 'email_read', run: async (user) => [200, listEmails(user)] },
  'POST emails': { scope: 'email_write', run: async (user, body) => [201, addEmail(user, await body())] },
  'DELETE emails': {
    scope: 'email_write',
    run: async (user, body) => {
      deleteEmail(user, await body());
      return [204, undefined];
    },
  },
};

/** Who is calling, and for a bearer token, which account actions it carries for `username`. */
async function authenticate(options: AccountsServerOptions, request: IncomingMessage, username: string): Promise<{ caller: string; actions?: string[] }> {
  const credentials = parseAuthorization(request.headers.authorization);
  if (credentials === undefined) throw new AccountsHttpError(401, 'authentication credentials were not provided');
  if (credentials === 'malformed') throw new AccountsHttpError(401, 'the Authorization header is neither Basic nor Bearer');
  if (credentials.scheme === 'basic') {
    const user = await options.users.authenticate(credentials.username, credentials.password);
    if (!user) throw new AccountsHttpError(401, 'invalid user name or password');
    return { caller: user.username };
  }
  const verified = options.verifier.verify(credentials.token, options.audience);
  if (!verified) throw new AccountsHttpError(401, 'the bearer token is invalid or expired');
  const actions = verified.access.filter((entry) => entry.type === ACCOUNT_SCOPE_TYPE && entry.name === username).flatMap((entry) => entry.actions);
  return { caller: verified.subject, actions };
}

async function handle(options: AccountsServerOptions, limits: RequestLimits, log: BugLog, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const host = request.headers.host ?? 'localhost';
  try {
    const refusal = admitRequest(request, limits);
    if (refusal) throw refusal;
    const url = splitTarget(request.url ?? '/');
    const matched = USER_PATH.exec(url.pathname);
    if (!matched?.[1]) throw new AccountsHttpError(404, `no such endpoint ${url.pathname}`);
    const username = decodeSegment(matched[1]);
    const operation = OPERATIONS[`${request.method ?? ''} ${matched[2] ? 'emails' : 'user'}`];
    if (!operation) throw new AccountsHttpError(405, `${request.method ?? ''} is not allowed on ${url.pathname}`);
    const { caller, actions } = await authenticate(options, request, username);
    const user = options.users.get(username);
    if (!user) throw new AccountsHttpError(404, `no user ${username}`);
    if (caller !== username) throw new AccountsHttpError(403, 'you may only read or change your own account');
    if (actions && !actions.includes(operation.scope)) throw new AccountsHttpError(403, `the token lacks the scope ${operation.scope}`);
    const [status, value] = await operation.run(user, () => readObject(request));
    send(response, status, value === user ? userView(user, `http://${host}`) : value);
  } catch (error) {
    if (error instanceof AccountsHttpError) send(response, error.status, { detail: error.message }, error.status === 401 ? { 'WWW-Authenticate': CHALLENGE } : {});
    // The rest of a refused body is never read: the connection closes after the answer.
    else if (error instanceof RequestLimitError) send(response, error.status, { detail: error.message }, { Connection: 'close' });
    else if (error instanceof InvalidAccountChange) send(response, 400, { detail: error.message });
    else if (error instanceof UnknownEmailAddress) send(response, 404, { detail: error.message });
    else {
      logBug(log, 'accounts', request, error);
      send(response, 500, { detail: (error as Error).message });
    }
  }
}

export function createAccountsServer(options: AccountsServerOptions): Server {
  const limits = resolveLimits(options.limits);
  const log = options.log ?? STDERR_LOG;
  const server = createServer(serverOptions(limits), guardedListener('accounts', log, (request, response) => handle(options, limits, log, request, response)));
  answerClientErrors(server, limits);
  return server;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new AccountsHttpError(404, `no such user path segment ${JSON.stringify(segment)}`);
  }
}
