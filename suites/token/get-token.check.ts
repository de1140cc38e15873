/**
 * GET /token as docker clients call it at `docker login`, pull and push (the form spec/3 §2.1 maps to
 * the query: `service`, repeated `scope`, `offline_token`, `client_id`, `account`, with HTTP Basic):
 * a token response, a refresh token with offline_token=true, 401 for credentials that fail. spec/3 §4
 * has POST only: these are Docker's (its registry token protocol, as dockerd 20.10 logs in with it).
 */
import { check, type CheckMeta } from '../../harness/check.ts';
import { CLIENT_ID, expectTokenResponse, tokenSetup } from './token-steps.ts';

const GET = { spec: '3 §5.1', level: 'docker', seen: 'dockerd 20.10.24', since: '1.18', requires: ['token-service'] } satisfies Partial<CheckMeta>;

check('token.get.basic', {
  ...GET,
  title: 'GET /token with HTTP Basic and repeated scope answers 200 with a token response',
  tags: ['schema'],
  covers: ['3:POST /token:body:scope'],
}, async (context) => {
  const { client, services, user } = tokenSetup(context);
  const scope = [`repository:${user.username}/shipshape-app:pull`, `repository:${user.username}/shipshape-other:pull,push`];
  const answer = await client.get({ service: services.service, scope, client_id: CLIENT_ID, account: user.username }, user);
  expectTokenResponse(context.expect, answer);
});

check('token.get.offline-token', {
  ...GET,
  title: 'GET /token with offline_token=true returns a refresh token (what dockerd keeps as the identity token)',
  tags: ['state'],
}, async (context) => {
  const { client, services, user } = tokenSetup(context);
  const answer = await client.get({ service: services.service, offline_token: 'true', client_id: CLIENT_ID }, user);
  const body = expectTokenResponse(context.expect, answer);
  context.expect(typeof body.refresh_token === 'string' && body.refresh_token !== '', `offline_token=true must return a refresh_token: ${answer.describe()}`).toBe(true);
});

check('token.get.wrong-password', {
  ...GET,
  title: 'GET /token with a wrong Basic password answers 401',
  tags: ['error'],
}, async (context) => {
  const { client, services, user } = tokenSetup(context);
  const answer = await client.get({ service: services.service, client_id: CLIENT_ID }, { username: user.username, password: `${user.password}-wrong` });
  context.expect(answer.status, `a wrong password must be refused with 401: ${answer.describe()}`).toBe(401);
});
