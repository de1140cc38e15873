/**
 * An access token ends at its `expires_in` (spec/3 §2.2): the resource server takes it before and
 * refuses it after. The resource server here is the run's accounts API, which takes the token
 * service's bearer tokens (spec/3 §5). The token service has no API versions and the check waits
 * out a whole token (at least a minute), so it runs once, not at all eight: at the oldest version,
 * whose checks a run schedules first, so that the wait overlaps the rest of the run.
 */
import { check } from '../../harness/check.ts';
import { accountsSetup, accountToken } from '../accounts/account-steps.ts';

/** The longest token lifetime the check waits out; a longer one makes it an error, not a failure. */
const MAX_LIFETIME_S = 300;
/** Between two tries of the expired token. */
const POLL_MS = 2_000;
/** Clocks of the check and the services may differ by this much. */
const SKEW_MS = 3_000;

check('token.expiry.refused-after-expires-in', {
  title: 'a bearer token the accounts API takes is refused with 401 once its expires_in has passed, and not before',
  spec: '3 §2.2, §4, §5.3, §5.4',
  quote: [
    '| expires_in | yes | seconds the token stays valid from issue; defaults to 60 when omitted; a token is never returned with less than 60 seconds to live |',
    '| issued_at | no | RFC 3339 UTC time of issue; when omitted the expiry counts from the end of the token exchange |',
    '| GET /api/v1.1/users/:username/ | none | 200 user | 200, 401, 403, 404 |',
    'Accounts API: the Authorization header is required and is either HTTP Basic or an OAuth bearer token.',
    'OAuth access tokens need the scope profile_read for GET user',
    'Invalid or missing credentials give 401.',
  ],
  since: '1.18',
  until: '1.18',
  tags: ['state'],
  requires: ['token-service', 'accounts-api'],
  timeoutMs: (MAX_LIFETIME_S + 60) * 1_000,
  covers: ['3:POST /token'],
}, async (context) => {
  const setup = accountsSetup(context);
  const token = await accountToken(context, setup, ['profile_read']);
  const issued = Date.now();
  const lifetimeMs = token.expiresIn * 1_000;
  if (!(lifetimeMs > 0) || lifetimeMs > MAX_LIFETIME_S * 1_000) throw new Error(`setup: the token lives ${token.expiresIn} s; this check waits out at most ${MAX_LIFETIME_S} s`);
  const read = () => setup.client.send('GET', setup.username, 'user', { auth: { bearer: token.accessToken } });

  const fresh = await read();
  context.expect(fresh.status, `GET the user with the new token: ${fresh.describe()}`).toBe(200);
  const deadline = issued + lifetimeMs + SKEW_MS * 2 + POLL_MS;
  let last = fresh;
  while (last.status === 200 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    last = await read();
  }
  const refusedAfterMs = Date.now() - issued;
  context.expect(last.status, `GET the user with the token ${Math.round(refusedAfterMs / 1000)} s after it was issued (expires_in ${token.expiresIn}): ${last.describe()}`).toBe(401);
  context.expect(refusedAfterMs, `the token was refused ${refusedAfterMs} ms after it was issued, before its expires_in of ${token.expiresIn} s`).toBeGreaterThanOrEqual(lifetimeMs - SKEW_MS);
});
