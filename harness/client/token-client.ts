/**
 * The token service as checks see it (spec/3 §2.1, §4): `POST /token` with a form, `GET /token` with
 * HTTP Basic as docker clients send it. Requests go over the wire; answers are
 * ServiceAnswers, secrets masked in what is logged.
 */
import type { Query } from './engine-client.ts';
import { EngineClient } from './engine-client.ts';
import { connectionDispatcher } from './shared-dispatcher.ts';
import { sendToService, type ServiceAnswer } from './service-answer.ts';
import type { ExchangeRecord } from './api-response.ts';

const FORM_TYPE = 'application/x-www-form-urlencoded';

export type FormFields = Record<string, string | undefined>;

/** The form body: fields left undefined are not sent. */
export function encodeForm(fields: FormFields): string {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
  return form.toString();
}

export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/** The JSON token response (spec/3 §2.2), with docker's `token` beside `access_token`. */
export interface TokenResponse {
  access_token?: unknown;
  token?: unknown;
  scope?: unknown;
  expires_in?: unknown;
  issued_at?: unknown;
  refresh_token?: unknown;
}

/** RFC 6749 §5.2 */
export interface TokenError {
  error?: unknown;
  error_description?: unknown;
}

export class TokenClient {
  private readonly http: EngineClient;

  constructor(authUrl: string, exchanges: ExchangeRecord[]) {
    const connection = { origin: authUrl };
    this.http = new EngineClient(connection, connectionDispatcher(connection), undefined, exchanges, 'the token service (spec/3) has no API versions');
  }

  /** `POST /token` with these form fields. */
  post(fields: FormFields): Promise<ServiceAnswer> {
    return this.postRaw(encodeForm(fields), FORM_TYPE);
  }

  /** `POST /token` with a body as is: for checks of malformed requests. */
  postRaw(body: string, contentType: string): Promise<ServiceAnswer> {
    return sendToService(this.http, 'token', 'POST', '/token', { body, headers: { 'content-type': contentType } });
  }

  /** `GET /token` with the query and, when given, HTTP Basic credentials. */
  get(query: Query, credentials?: { username: string; password: string }): Promise<ServiceAnswer> {
    const headers: Record<string, string> = credentials ? { authorization: basicAuthorization(credentials.username, credentials.password) } : {};
    return sendToService(this.http, 'token', 'GET', '/token', { query, headers });
  }
}
