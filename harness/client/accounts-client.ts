/**
 * The accounts API as checks see it (spec/3 §4): `/api/v1.1/users/:username/` and `…/emails/`, each
 * call with the Authorization a check picks (Basic, Bearer, a raw header, or none).
 */
import type { ExchangeRecord } from './api-response.ts';
import { EngineClient } from './engine-client.ts';
import { sendToService, type ServiceAnswer } from './service-answer.ts';
import { connectionDispatcher } from './shared-dispatcher.ts';
import { basicAuthorization } from './token-client.ts';

export type Authorization = { basic: { username: string; password: string } } | { bearer: string } | { header: string } | 'none';

export interface AccountsRequest {
  auth: Authorization;
  /** a JSON body */
  json?: unknown;
  /** a body sent as is, with `contentType` */
  body?: string;
  contentType?: string;
}

function authorizationHeader(auth: Authorization): Record<string, string> {
  if (auth === 'none') return {};
  if ('basic' in auth) return { authorization: basicAuthorization(auth.basic.username, auth.basic.password) };
  if ('bearer' in auth) return { authorization: `Bearer ${auth.bearer}` };
  return { authorization: auth.header };
}

export class AccountsClient {
  private readonly http: EngineClient;

  constructor(accountsUrl: string, exchanges: ExchangeRecord[]) {
    const connection = { origin: accountsUrl };
    this.http = new EngineClient(connection, connectionDispatcher(connection), undefined, exchanges, 'the accounts API (spec/3) has its own /api/v1.1/ paths, no engine version');
  }

  /** `METHOD /api/v1.1/users/{username}/` or, with `emails`, `…/{username}/emails/` */
  send(method: string, username: string, resource: 'user' | 'emails', request: AccountsRequest): Promise<ServiceAnswer> {
    const path = `/api/v1.1/users/${encodeURIComponent(username)}/${resource === 'emails' ? 'emails/' : ''}`;
    const headers = { ...authorizationHeader(request.auth), ...(request.contentType ? { 'content-type': request.contentType } : {}) };
    return sendToService(this.http, 'accounts', method, path, { headers, json: request.json, body: request.body });
  }
}
