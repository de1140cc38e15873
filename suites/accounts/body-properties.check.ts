/**
 * The accounts API's JSON bodies (spec/3 §4) with a field of another JSON type than the row gives it:
 * PATCH user's "optional string fields" and the e-mail calls' `email (string, …)`. A value that is not
 * a string is a validation error, 400 (§7.1); DELETE may also answer 404, "address does not exist",
 * since no address is a number. Unknown fields, `null`, field-name case and duplicate keys: spec/3
 * says nothing of them (spec/1 §1's open schema is the engine daemon's), so they stay out.
 */
import fc from 'fast-check';
import { check } from '../../harness/check.ts';
import { assertProperty } from '../../harness/property-check.ts';
import { accountsSetup, bearer } from './account-steps.ts';

const RUNS = 12;
const PATCH_ROW = '| PATCH /api/v1.1/users/:username/ | optional string fields full_name, location, company, profile_url, avatar_email | 200 updated user | 200, 400 (validation), 401, 403, 404 |';
const POST_ROW = '| POST /api/v1.1/users/:username/emails/ | email (string, address to add; a confirmation mail is not sent automatically, verification is separate) | 201 email entry | 201, 400, 401, 403, 404 |';
const DELETE_ROW = '| DELETE /api/v1.1/users/:username/emails/ | email (string, address to delete; the primary address cannot be deleted) | 204, empty body | 204, 400, 401, 403, 404 (user name or address does not exist) |';
const STATUS_MEANINGS = 'Accounts API status codes are those of the table in 4: 400 validation error, 401 authentication error, 403 permission error, 404 unknown user name or address.';

const PATCH_FIELDS = ['full_name', 'location', 'company', 'profile_url', 'avatar_email'];
const word = fc.stringMatching(/^[a-z0-9]{1,6}$/);
/** any JSON value but a string, and never null (what null means spec/3 does not say) */
const notString = fc.oneof(
  fc.integer({ min: -1000, max: 100_000 }),
  fc.boolean(),
  fc.array(word, { maxLength: 2 }),
  fc.dictionary(word, word, { maxKeys: 2 }),
);

type Case = { call: 'PATCH user'; field: string; value: unknown } | { call: 'POST emails' | 'DELETE emails'; field: 'email'; value: unknown };

check('accounts.json.property-wrong-types', {
  title: 'a PATCH user field, or the email of POST and DELETE emails, given a value that is not a string answers 400 (DELETE: or 404, no such address)',
  spec: '3 §4, §5.3, §5.4, §7.1',
  quote: [PATCH_ROW, POST_ROW, DELETE_ROW, STATUS_MEANINGS, 'Accounts API: the Authorization header is required and is either HTTP Basic or an OAuth bearer token.', 'OAuth access tokens need the scope profile_read for GET user, profile_write for PATCH user, email_read for listing e-mails, email_write for adding and deleting e-mails; a missing scope gives 403.'],
  since: '1.18',
  tags: ['property', 'error'],
  // a bearer token, not Basic: each Basic request costs the password's deliberately slow hash
  requires: ['accounts-api', 'token-service'],
  covers: [
    '3:PATCH /api/v1.1/users/:username/:status:400',
    '3:POST /api/v1.1/users/:username/emails/:body:email',
    '3:POST /api/v1.1/users/:username/emails/:status:400',
  ],
}, async (context) => {
  const setup = accountsSetup(context);
  const auth = await bearer(context, setup, ['profile_write', 'email_write']);
  const cases: fc.Arbitrary<Case> = fc.oneof(
    fc.record({ call: fc.constant('PATCH user' as const), field: fc.constantFrom(...PATCH_FIELDS), value: notString }),
    fc.record({ call: fc.constantFrom('POST emails' as const, 'DELETE emails' as const), field: fc.constant('email' as const), value: notString }),
  );
  await assertProperty(context, fc.asyncProperty(cases, async ({ call, field, value }) => {
    const [method, resource] = call === 'PATCH user' ? ['PATCH', 'user'] as const : call === 'POST emails' ? ['POST', 'emails'] as const : ['DELETE', 'emails'] as const;
    const answer = await setup.client.send(method, setup.username, resource, { auth, json: { [field]: value } });
    if (method === 'POST' && answer.status === 201) {
      // taken anyway: whatever it added goes with the check
      context.make.track(`e-mail address ${JSON.stringify(value)}`, async () => {
        await setup.client.send('DELETE', setup.username, 'emails', { auth: setup.basic, json: { email: value } });
      });
    }
    const allowed = method === 'DELETE' ? [400, 404] : [400];
    context.expect(allowed, `${call} with ${field} ${JSON.stringify(value)}: expected ${allowed.join(' or ')}: ${answer.describe()}`).toContain(answer.status);
  }), RUNS);
});
