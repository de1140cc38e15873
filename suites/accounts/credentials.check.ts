/**
 * What the accounts API takes as HTTP Basic credentials (spec/3 §5.3, §5.4): the scheme and one
 * token68 (RFC 7617). A header with words after the token holds no valid credentials, so it is
 * refused as invalid credentials are (401), never read from its prefix.
 */
import { check } from '../../harness/check.ts';
import { basicAuthorization } from '../../harness/client/token-client.ts';
import { accountsSetup } from './account-steps.ts';

check('accounts.user.basic-trailing-words', {
  title: 'GET the user with a Basic header whose right credentials are followed by another word answers 401; the same credentials alone 200',
  spec: '3 §4, §5.3, §5.4',
  quote: [
    '| GET /api/v1.1/users/:username/ | none | 200 user | 200, 401, 403, 404 |',
    'Accounts API: the Authorization header is required and is either HTTP Basic or an OAuth bearer token.',
    'Invalid or missing credentials give 401.',
  ],
  since: '1.18',
  requires: ['accounts-api'],
  tags: ['error'],
  covers: ['3:GET /api/v1.1/users/:username/:header:Authorization', '3:GET /api/v1.1/users/:username/:status:401'],
}, async (context) => {
  const setup = accountsSetup(context);
  const user = setup.services.user ?? { username: setup.username, password: '' };
  const header = basicAuthorization(user.username, user.password);
  const statuses = {
    alone: (await setup.client.send('GET', setup.username, 'user', { auth: { header } })).status,
    'followed by a word': (await setup.client.send('GET', setup.username, 'user', { auth: { header: `${header} trailing` } })).status,
  };
  context.expect(statuses, `GET user per Authorization header: ${JSON.stringify(statuses)}`).toEqual({ alone: 200, 'followed by a word': 401 });
});
