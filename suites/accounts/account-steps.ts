/**
 * What the accounts checks share: a client for the run's accounts API, the run's user as Basic
 * credentials, bearer tokens of the run's token service carrying chosen account scopes, and an e-mail
 * address a check adds and the tracker deletes whatever the outcome.
 */
import { randomBytes } from 'node:crypto';
import type { CheckContext } from '../../harness/check.ts';
import { AccountsClient, type Authorization } from '../../harness/client/accounts-client.ts';
import type { ServiceAnswer } from '../../harness/client/service-answer.ts';
import { TokenClient, type TokenResponse } from '../../harness/client/token-client.ts';
import { formatScope, parseScopeList, scopesBeyond, type Scope } from '../../protocol/scope-list.ts';
import type { AccountServices } from '../../harness/session.ts';

/** spec/3 §5.4 */
export type AccountAction = 'profile_read' | 'profile_write' | 'email_read' | 'email_write';

export interface AccountsSetup {
  client: AccountsClient;
  services: AccountServices;
  username: string;
  /** the run's user, as HTTP Basic */
  basic: Authorization;
}

/** The run's accounts API and user; the checks declare `requires: ['accounts-api']`, so both are there. */
export function accountsSetup({ session, engine }: Pick<CheckContext, 'session' | 'engine'>): AccountsSetup {
  const services = session.accountServices;
  if (!services?.accountsUrl || !services.user) throw new Error('setup: the session has no accounts API or user, yet the check did not skip');
  return { client: new AccountsClient(services.accountsUrl, engine.exchanges), services, username: services.user.username, basic: { basic: services.user } };
}

/**
 * A bearer token of the run's token service for `account:<user>:<actions>` (checks using it also
 * require `token-service`). spec/3 §5.4 names the scopes (profile_read, …) but not how a token request
 * spells them (§2.1 gives only the example `repository:<name>:<actions>`): when the token service
 * grants other than what was asked in this spelling, a check that needs the scopes cannot run, which
 * is a setup error, not a failure. `needsGrant: false` is for a token a check expects to be refused.
 */
export async function bearer(context: Pick<CheckContext, 'engine'>, setup: AccountsSetup, actions: AccountAction[], options: { needsGrant?: boolean } = {}): Promise<Authorization> {
  return { bearer: (await accountToken(context, setup, actions, options)).accessToken };
}

/** The token response behind `bearer`: the access token and its lifetime in seconds (expires_in, or the 60 spec/3 §2.2 defaults to). */
export async function accountToken(context: Pick<CheckContext, 'engine'>, setup: AccountsSetup, actions: AccountAction[], { needsGrant = true }: { needsGrant?: boolean } = {}): Promise<{ accessToken: string; expiresIn: number }> {
  const { authUrl, user, service } = setup.services;
  if (!authUrl || !user) throw new Error('setup: no token service to ask for a bearer token');
  const requested: Scope = { type: 'account', name: user.username, actions };
  const answer = await new TokenClient(authUrl, context.engine.exchanges).post({
    grant_type: 'password',
    service,
    client_id: 'shipshape-checks',
    username: user.username,
    password: user.password,
    scope: formatScope(requested),
  });
  const body = answer.status === 200 ? answer.json<TokenResponse>() : undefined;
  if (typeof body?.access_token !== 'string') throw new Error(`setup: the token service gave no access token: ${answer.describe()}`);
  if (needsGrant) {
    let granted: Scope[] = [];
    try {
      granted = parseScopeList(String(body.scope ?? ''));
    } catch {
      // a scope list this spelling does not parse grants nothing it could check
    }
    const missing = requested.actions.filter((action) => scopesBeyond([{ ...requested, actions: [action] }], granted).length > 0);
    if (missing.length > 0) throw new Error(`setup: the token service did not grant ${missing.join(', ')} asked for as ${formatScope(requested)} (spec/3 gives no spelling for account scopes): ${answer.describe()}`);
  }
  return { accessToken: body.access_token, expiresIn: body.expires_in === undefined ? 60 : Number(body.expires_in) };
}

/** An address unique to the check, under the run's name, on a reserved domain (RFC 2606). */
export function uniqueAddress(context: Pick<CheckContext, 'make'>): string {
  return `${context.make.uniqueName('mail')}-${randomBytes(2).toString('hex')}@example.org`;
}

/** POSTs an address for the run's user and, when it was added (201), schedules its deletion; returns the POST's answer. */
export async function addAddress(context: Pick<CheckContext, 'make'>, setup: AccountsSetup, email: string, auth: Authorization = setup.basic): Promise<ServiceAnswer> {
  const answer = await setup.client.send('POST', setup.username, 'emails', { auth, json: { email } });
  if (answer.status === 201) {
    context.make.track(`e-mail address ${email}`, async () => {
      const res = await setup.client.send('DELETE', setup.username, 'emails', { auth: setup.basic, json: { email } });
      if (res.status !== 204 && res.status !== 404) throw new Error(res.describe());
    });
  }
  return answer;
}

export interface EmailEntry {
  email: string;
  verified: boolean;
  primary: boolean;
}

/** GET …/emails/ as the run's user: the list, which must be an array of spec/3 §2.4 entries. */
export async function listAddresses(context: Pick<CheckContext, 'expect'>, setup: AccountsSetup): Promise<EmailEntry[]> {
  const answer = await setup.client.send('GET', setup.username, 'emails', { auth: setup.basic });
  context.expect(answer.status, `GET emails: ${answer.describe()}`).toBe(200);
  const entries = answer.json<unknown>();
  context.expect(Array.isArray(entries), `the e-mail list must be an array: ${answer.describe()}`).toBe(true);
  for (const entry of entries as Record<string, unknown>[]) {
    context.expect({ email: typeof entry.email, verified: typeof entry.verified, primary: typeof entry.primary }, `an e-mail entry (spec/3 §2.4): ${JSON.stringify(entry)}`).toEqual({ email: 'string', verified: 'boolean', primary: 'boolean' });
  }
  return entries as EmailEntry[];
}
