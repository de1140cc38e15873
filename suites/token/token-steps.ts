/**
 * What the token checks share: a client for the run's token service, the fields of a password grant
 * as the run's user, and the assertions every answer of spec/3 §2.2 and RFC 6749 §5.2 gets.
 */
import type { ExpectStatic } from 'vitest';
import type { CheckContext } from '../../harness/check.ts';
import { TokenClient, type FormFields, type TokenError, type TokenResponse } from '../../harness/client/token-client.ts';
import type { ServiceAnswer } from '../../harness/client/service-answer.ts';
import type { AccountServices } from '../../harness/session.ts';

/** what the checks call themselves (RFC 6749 Appendix A.1: printable ASCII) */
export const CLIENT_ID = 'shipshape-checks';
/** RFC 3339 date-time in UTC (`Z`), fractional seconds optional */
const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** spec/3 §8 */
export const MIN_EXPIRES_IN = 60;

export interface TokenSetup {
  client: TokenClient;
  services: AccountServices;
  user: { username: string; password: string };
}

/** The run's token service and user; the checks declare `requires: ['token-service']`, so both are there. */
export function tokenSetup({ session, engine }: Pick<CheckContext, 'session' | 'engine'>): TokenSetup {
  const services = session.accountServices;
  if (!services?.authUrl || !services.user) throw new Error('setup: the session has no token service or user, yet the check did not skip');
  return { client: new TokenClient(services.authUrl, engine.exchanges), services, user: services.user };
}

/** A password grant as the run's user for the run's service; `extra` adds or overrides fields (undefined drops one). */
export function passwordGrant({ services, user }: TokenSetup, extra: FormFields = {}): FormFields {
  return { grant_type: 'password', service: services.service, client_id: CLIENT_ID, username: user.username, password: user.password, ...extra };
}

/** A refresh_token grant with `refreshToken` for the run's service; `extra` adds or overrides fields. */
export function refreshGrant({ services }: TokenSetup, refreshToken: string, extra: FormFields = {}): FormFields {
  return { grant_type: 'refresh_token', service: services.service, client_id: CLIENT_ID, refresh_token: refreshToken, ...extra };
}

/** A 200 token response with every field of spec/3 §2.2 well formed; returns it. Never prints a token's value. */
export function expectTokenResponse(expect: ExpectStatic, answer: ServiceAnswer): TokenResponse {
  expect(answer.status, `expected 200 with a token: ${answer.describe()}`).toBe(200);
  expect(answer.headers['content-type'] ?? '', `expected a JSON answer: ${answer.describe()}`).toMatch(/^application\/json/);
  const body = answer.json<TokenResponse>();
  expect(typeof body.access_token === 'string' && body.access_token !== '', `access_token must be a non-empty string: ${answer.describe()}`).toBe(true);
  expect(typeof body.scope, `scope must always be present (spec/3 §2.2): ${answer.describe()}`).toBe('string');
  expect(Number.isInteger(body.expires_in), `expires_in must be an integer: ${answer.describe()}`).toBe(true);
  if (body.issued_at !== undefined) expect(String(body.issued_at), `issued_at must be RFC 3339 in UTC: ${answer.describe()}`).toMatch(RFC3339_UTC);
  return body;
}

/** RFC 3339 in UTC: `Z` (either case) or a zero offset; `T` either case (RFC 3339 §5.6 note) */
const RFC3339_ANY_UTC = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]00:00)$/;

/**
 * A 200 token response as spec/3 §4 and §2.2 have it, no more: JSON, a non-empty access_token, scope
 * always present; expires_in, which "defaults to 60 when omitted", a number of at least 60 when
 * given; issued_at, when given, an RFC 3339 UTC time. (expectTokenResponse, which other areas use,
 * also wants expires_in always and issued_at in `Z`.) Returns the body.
 */
export function expectSpecTokenResponse(expect: ExpectStatic, answer: ServiceAnswer): TokenResponse {
  expect(answer.status, `expected 200 with a token: ${answer.describe()}`).toBe(200);
  expect(answer.headers['content-type'] ?? '', `expected a JSON answer: ${answer.describe()}`).toMatch(/^application\/json/);
  const body = answer.json<TokenResponse>();
  expect(typeof body.access_token === 'string' && body.access_token !== '', `access_token must be a non-empty string: ${answer.describe()}`).toBe(true);
  expect(typeof body.scope, `scope must always be present (spec/3 §2.2): ${answer.describe()}`).toBe('string');
  if (body.expires_in !== undefined) {
    expect(typeof body.expires_in === 'number' && body.expires_in >= MIN_EXPIRES_IN, `expires_in, when given, must be a number of at least ${MIN_EXPIRES_IN} (spec/3 §2.2): ${answer.describe()}`).toBe(true);
  }
  if (body.issued_at !== undefined) expect(String(body.issued_at), `issued_at must be RFC 3339 in UTC: ${answer.describe()}`).toMatch(RFC3339_ANY_UTC);
  return body;
}

/** The token's lifetime in seconds: its expires_in, or the 60 spec/3 §2.2 and §8 default to. */
export function lifetimeSeconds(body: TokenResponse): number {
  return body.expires_in === undefined ? MIN_EXPIRES_IN : Number(body.expires_in);
}

/**
 * A refusal of spec/3: no token. Statuses other than 200 and error bodies are "not shown" (§4, §7.2),
 * so anything but 200 is a refusal, whatever its body.
 */
export function expectNoToken(expect: ExpectStatic, answer: ServiceAnswer, why: string): void {
  expect(answer.status, `${why}: expected a refusal (any status but 200): ${answer.describe()}`).not.toBe(200);
}

/** An RFC 6749 §5.2 error: one of `statuses`, a JSON body whose `error` is `code`. */
export function expectOAuthError(expect: ExpectStatic, answer: ServiceAnswer, statuses: number[], code: string | string[]): void {
  expect(statuses, `expected ${statuses.join(' or ')}: ${answer.describe()}`).toContain(answer.status);
  expect(answer.headers['content-type'] ?? '', `expected a JSON error body (RFC 6749 §5.2): ${answer.describe()}`).toMatch(/^application\/json/);
  const body = answer.json<TokenError>();
  expect([code].flat(), `expected error ${[code].flat().join(' or ')}: ${answer.describe()}`).toContain(body.error);
  if (body.error_description !== undefined) expect(typeof body.error_description, `error_description must be a string: ${answer.describe()}`).toBe('string');
}

/** A refresh token from an offline password grant, for the checks of the refresh grant. */
export async function offlineRefreshToken(expect: ExpectStatic, setup: TokenSetup, service = setup.services.service): Promise<string> {
  const answer = await setup.client.post(passwordGrant(setup, { access_type: 'offline', service }));
  const body = expectSpecTokenResponse(expect, answer);
  if (typeof body.refresh_token !== 'string' || body.refresh_token === '') throw new Error(`setup: an offline password grant gave no refresh token: ${answer.describe()}`);
  return body.refresh_token;
}
