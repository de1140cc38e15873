/**
 * What the tests of the engine's registry parts share: the fixture user alice, X-Registry-Auth as
 * clients send it, the JSON messages of a stream answer, and a reference serving a fixture registry.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { startReference, type RunningReference } from '../../../reference/serve.ts';
import { FIXTURE_USERS_FILE } from '../../../reference/users/fixture-users.ts';
import { httpCaller, type Call } from '../http-client.ts';

const found = (JSON.parse(readFileSync(FIXTURE_USERS_FILE, 'utf8')) as Array<{ username: string; password: string }>).find((user) => user.username === 'alice');
if (found === undefined) throw new Error('the fixture users lack alice');
export const alice = found;

/** X-Registry-Auth as clients send it: base64url with Go's padding */
export const authHeader = (config: Record<string, string>) => Buffer.from(JSON.stringify(config)).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
export const PASSWORD_AUTH = authHeader({ username: alice.username, password: alice.password });

/** The JSON messages of a stream answer. */
export const messagesOf = (text: string) => text.split('\r\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);

export interface RegistryReference {
  reference: RunningReference;
  call: Call;
  /** the fixture registry's `host:port`, as image names carry it */
  host: string;
}

/** A reference with its fixture registry for a test file: started before its tests, closed after them. */
export function useRegistryReference(): RegistryReference {
  const served = {} as RegistryReference;
  beforeAll(async () => {
    served.reference = await startReference({ registry: 'tcp://127.0.0.1:0' });
    served.call = httpCaller(served.reference.engineUrl);
    served.host = served.reference.registry?.host ?? '';
  });
  afterAll(() => served.reference.close());
  return served;
}
