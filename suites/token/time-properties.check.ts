/**
 * The time fields of a token response (spec/3 §2.2, §8) as properties over the grants spec/3 §2.1
 * lists that give a token: `password` (online, and offline with a refresh token) and `refresh_token`
 * (`authorization_code` is reserved: no token to look at). Each case takes the local clock before and
 * after the exchange: `issued_at`, when given, is "time of issue", so it lies within that window
 * (widened by CLOCK_SKEW_MS for the two hosts' clocks, and by a second below for a time given in
 * whole seconds); `expires_in` defaults to 60 when omitted, and "a token is never returned with less
 * than 60 seconds to live": counted from `issued_at` when given, else from the end of the exchange,
 * the token still has 60 seconds to live when the answer arrives. The access token is opaque
 * ("clients must not parse it"), so its own claims (a JWT's iat, nbf, exp) are no part of the oracle.
 * GET /token (HTTP Basic, anonymous) is Docker's, not spec/3's: its twin is docker-level, with
 * distribution's token protocol wording, which is the same for these two fields.
 */
import fc from 'fast-check';
import type { ExpectStatic } from 'vitest';
import { check, type CheckContext } from '../../harness/check.ts';
import type { ServiceAnswer } from '../../harness/client/service-answer.ts';
import type { TokenResponse } from '../../harness/client/token-client.ts';
import { assertProperty } from '../../harness/property-check.ts';
import { formatScopeList, type Scope } from '../../protocol/scope-list.ts';
import { CLIENT_ID, expectSpecTokenResponse, expectTokenResponse, lifetimeSeconds, MIN_EXPIRES_IN, offlineRefreshToken, passwordGrant, refreshGrant, tokenSetup } from './token-steps.ts';

/** Cases per check: password grants cost a deliberately slow hash each. */
const PROPERTY_RUNS = 10;
/** Clocks of the check and the token service may differ by this much (as token.expiry's). */
const CLOCK_SKEW_MS = 3_000;

const TOKEN_RESPONSE = [
  '| POST /token | Content-Type `application/x-www-form-urlencoded` | form fields of 2.1 | 200 `application/json` token response of 2.2 |',
  '| access_token | yes | opaque bearer token; clients must not parse it; sent in the Authorization header of later requests |',
  '| scope | yes | scope granted; the requested scope or a subset; always present (stricter than RFC 6749 section 4.2.2) |',
  '| expires_in | yes | seconds the token stays valid from issue; defaults to 60 when omitted; a token is never returned with less than 60 seconds to live |',
  '| issued_at | no | RFC 3339 UTC time of issue; when omitted the expiry counts from the end of the token exchange |',
];
const GRANT_TYPE = '| grant_type | yes | `password` (with username and password, to obtain a refresh token), `refresh_token` (with refresh_token, to obtain an access token), `authorization_code` (reserved for future use) |';
const ACCESS_TYPE = '| access_type | no | `offline` returns a refresh token; default `online` returns only a short-lived access token; with grant_type refresh_token only the same refresh token is returned, never a new one |';
const LIMITS = ['| Minimum remaining lifetime of an issued access token | 60 seconds |', '| Default expires_in when omitted | 60 seconds |'];

/** RFC 3339 date-time with a UTC offset (`Z` or ±00:00, `T` and `Z` in either case): its instant in ms, fractions beyond ms dropped. */
const RFC3339_UTC = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|[+-]00:00)$/;

function parseUtc(text: string): number | undefined {
  const match = RFC3339_UTC.exec(text);
  if (!match) return undefined;
  const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = match.slice(1, 7).map(Number);
  const ms = Number((match[7] ?? '0').padEnd(3, '0').slice(0, 3));
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}

/** The instants a case is judged by: the local clock before and after the exchange. */
interface Window {
  sentAt: number;
  answeredAt: number;
}

async function timed(send: () => Promise<ServiceAnswer>): Promise<{ answer: ServiceAnswer; window: Window }> {
  const sentAt = Date.now();
  const answer = await send();
  return { answer, window: { sentAt, answeredAt: Date.now() } };
}

/**
 * issued_at (when given) within the exchange's window, and at least 60 seconds to live when the
 * answer arrived: from issued_at + expires_in when issued_at is given, else expires_in itself
 * (the expiry counts from the end of the exchange). expires_in omitted is 60.
 */
function expectTimeFields(expect: ExpectStatic, body: TokenResponse, answer: ServiceAnswer, { sentAt, answeredAt }: Window): void {
  const lifetimeMs = lifetimeSeconds(body) * 1_000;
  if (body.issued_at === undefined) {
    expect(lifetimeMs, `without issued_at the expiry counts from the end of the exchange, so expires_in (${String(body.expires_in)}, 60 when omitted) must be at least ${MIN_EXPIRES_IN}: ${answer.describe()}`).toBeGreaterThanOrEqual(MIN_EXPIRES_IN * 1_000);
    return;
  }
  const issuedAt = parseUtc(String(body.issued_at));
  expect(issuedAt, `issued_at must be an RFC 3339 UTC time: ${answer.describe()}`).toBeDefined();
  if (issuedAt === undefined) return;
  const earliest = Math.floor(sentAt / 1_000) * 1_000 - CLOCK_SKEW_MS;
  const latest = answeredAt + CLOCK_SKEW_MS;
  const window = `${new Date(sentAt).toISOString()} .. ${new Date(answeredAt).toISOString()} (± ${CLOCK_SKEW_MS} ms clock skew)`;
  expect(issuedAt >= earliest && issuedAt <= latest, `issued_at ${String(body.issued_at)} is the time of issue, so within the exchange, ${window}: ${answer.describe()}`).toBe(true);
  const toLiveMs = issuedAt + lifetimeMs - answeredAt;
  expect(toLiveMs, `the token had ${toLiveMs} ms to live when it arrived (issued_at ${String(body.issued_at)} + expires_in ${String(body.expires_in)}), less than ${MIN_EXPIRES_IN} s (± ${CLOCK_SKEW_MS} ms clock skew): ${answer.describe()}`).toBeGreaterThanOrEqual(MIN_EXPIRES_IN * 1_000 - CLOCK_SKEW_MS);
}

/**
 * Repository scopes of the spec's example form: the user's own, a library one, another user's; any
 * subset, empty only where the spec allows it ("when a refresh token is requested the scope may be
 * empty"): `minLength` 1 for the other grants.
 */
function repositoryScopes(username: string, minLength: 0 | 1): fc.Arbitrary<string> {
  const all: Scope[] = [
    { type: 'repository', name: `${username}/shipshape-app`, actions: ['pull'] },
    { type: 'repository', name: `${username}/shipshape-app`, actions: ['push'] },
    { type: 'repository', name: 'library/busybox', actions: ['pull'] },
    { type: 'repository', name: 'shipshape-nobody/secret', actions: ['pull', 'push'] },
  ];
  return fc.subarray(all, { minLength }).map((scopes) => formatScopeList(scopes));
}

type SpecGrant = { grant: 'password'; accessType?: 'online' | 'offline'; scope: string } | { grant: 'refresh_token'; scope: string };

check('token.grant.property-time-fields', {
  title: 'every grant that gives a token (password online and offline, refresh_token) answers issued_at (when given) within the exchange and at least 60 s to live (expires_in, 60 when omitted, from issued_at or the end of the exchange)',
  spec: '3 §2.1, §2.2, §4, §8',
  quote: [...TOKEN_RESPONSE, GRANT_TYPE, ACCESS_TYPE, ...LIMITS],
  since: '1.18',
  tags: ['property', 'schema'],
  requires: ['token-service'],
  covers: ['3:POST /token', '3:POST /token:body:grant_type', '3:POST /token:body:access_type', '3:POST /token:body:refresh_token', '3:POST /token:status:200'],
}, async (context: CheckContext) => {
  const setup = tokenSetup(context);
  const refreshToken = await offlineRefreshToken(context.expect, setup);
  const { username } = setup.user;
  // Every case asks a password grant (online by default or by name, or offline) and a refresh grant:
  // each grant is met in every run, and the password's deliberately slow hash is paid once a case.
  const password: fc.Arbitrary<SpecGrant> = fc.constantFrom(undefined, 'online' as const, 'offline' as const).chain((accessType) =>
    repositoryScopes(username, accessType === 'offline' ? 0 : 1).map((scope) => ({ grant: 'password' as const, scope, ...(accessType ? { accessType } : {}) })));
  const refresh: fc.Arbitrary<SpecGrant> = repositoryScopes(username, 1).map((scope) => ({ grant: 'refresh_token' as const, scope }));
  await assertProperty(context, fc.asyncProperty(fc.tuple(password, refresh), async (grants) => {
    for (const grant of grants) await expectGrantTimes(context, setup, refreshToken, grant);
  }), PROPERTY_RUNS);
});

/** One grant's answer: a token, with issued_at (when given) within the exchange and at least 60 s to live. */
async function expectGrantTimes(context: CheckContext, setup: ReturnType<typeof tokenSetup>, refreshToken: string, grant: SpecGrant): Promise<void> {
  const fields = grant.grant === 'password'
    ? passwordGrant(setup, { scope: grant.scope, access_type: grant.accessType })
    : refreshGrant(setup, refreshToken, { scope: grant.scope });
  const { answer, window } = await timed(() => setup.client.post(fields));
  const body = expectSpecTokenResponse(context.expect, answer);
  expectTimeFields(context.expect, body, answer, window);
}

type DockerGet = { credentials: 'basic' | 'anonymous'; offline: boolean; scopes: string[] };

check('token.get.property-time-fields', {
  title: 'GET /token, with HTTP Basic or anonymous, answers expires_in (an integer) and issued_at in RFC 3339 UTC, within the exchange, with at least 60 s to live',
  spec: '3 §2.2, §5.1',
  // spec/3 §4 has POST only; GET /token is distribution's token protocol, as dockerd 20.10 calls it (its
  // docs give expires_in and issued_at the meaning spec/3 §2.2 gives them; expectTokenResponse wants both).
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['property', 'schema'],
  requires: ['token-service'],
}, async (context: CheckContext) => {
  const setup = tokenSetup(context);
  const { client, services, user } = setup;
  const scopes = fc.subarray([`repository:${user.username}/shipshape-app:pull`, `repository:${user.username}/shipshape-app:pull,push`, 'repository:library/busybox:pull']);
  const requests: fc.Arbitrary<DockerGet> = fc.record({ credentials: fc.constantFrom('basic' as const, 'anonymous' as const), offline: fc.boolean(), scopes });
  await assertProperty(context, fc.asyncProperty(requests, async (request) => {
    // offline_token without credentials would ask for a refresh token nobody is bound to: only with Basic.
    const query = { service: services.service, client_id: CLIENT_ID, scope: request.scopes, ...(request.offline && request.credentials === 'basic' ? { offline_token: 'true' } : {}) };
    const { answer, window } = await timed(() => client.get(query, request.credentials === 'basic' ? user : undefined));
    const body = expectTokenResponse(context.expect, answer);
    context.expect(body.issued_at, `issued_at must be given: ${answer.describe()}`).toBeDefined();
    context.expect(Number(body.expires_in), `expires_in must be at least ${MIN_EXPIRES_IN}: ${answer.describe()}`).toBeGreaterThanOrEqual(MIN_EXPIRES_IN);
    expectTimeFields(context.expect, body, answer, window);
  }), PROPERTY_RUNS);
});
