/**
 * What the tests of the engine's registry parts share: the fixture user alice, X-Registry-Auth as
 * clients send it, and the JSON messages of a stream answer.
 */
import { readFileSync } from 'node:fs';
import { FIXTURE_USERS_FILE } from '../../../reference/users/fixture-users.ts';

const found = (JSON.parse(readFileSync(FIXTURE_USERS_FILE, 'utf8')) as Array<{ username: string; password: string }>).find((user) => user.username === 'alice');
if (found === undefined) throw new Error('the fixture users lack alice');
export const alice = found;

/** X-Registry-Auth as clients send it: base64url with Go's padding */
export const authHeader = (config: Record<string, string>) => Buffer.from(JSON.stringify(config)).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
export const PASSWORD_AUTH = authHeader({ username: alice.username, password: alice.password });

/** The JSON messages of a stream answer. */
export const messagesOf = (text: string) => text.split('\r\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
