/**
 * Steps of the checks that go through a registry (spec/2 §4.1 pull and push, §4.2 POST /auth): the
 * run's registry and user (the `registry` capability), X-Registry-Auth headers, and the fixture image
 * pushed under a name of this run in the user's own namespace (`<registry>/<user>/…`, which the
 * user's access rules must allow). Every name a step gives the fixture image, the digest names a
 * push and a pull add included, goes with the check.
 */
import type { CheckContext } from '../harness/check.ts';
import type { ApiResponse } from '../harness/client/api-response.ts';
import { streamError, streamMessages, tagImage, type StreamMessage } from './image-steps.ts';

export interface RegistryUser {
  /** `host:port`, as the target reaches it */
  host: string;
  username: string;
  password: string;
}

/** The run's registry and user; the `registry` capability the check requires guarantees both. */
export function registryUser({ session }: CheckContext): RegistryUser {
  const user = session.accountServices?.user;
  if (session.registry === undefined || user === undefined) throw new Error('the run has no registry and user, though the check requires them');
  return { host: session.registry, ...user };
}

/** JSON as base64url, padded as Go's base64.URLEncoding, which dockerd decodes the registry headers with, wants it. */
function base64UrlJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

/** An X-Registry-Auth value: the AuthConfig as base64url JSON (spec/2 §4.1). */
export function registryAuthHeader(config: Record<string, string>): Record<string, string> {
  return { 'X-Registry-Auth': base64UrlJson(config) };
}

/** An X-Registry-Config value (POST /build): a ConfigFile giving the user's password for the run's registry. */
export function registryConfigHeader(user: RegistryUser): Record<string, string> {
  return { 'X-Registry-Config': base64UrlJson({ [user.host]: { username: user.username, password: user.password, serveraddress: user.host } }) };
}

export function passwordAuth(user: RegistryUser): Record<string, string> {
  return registryAuthHeader({ username: user.username, password: user.password, serveraddress: user.host });
}

/**
 * Credentials the token service refuses: a user of this check's own that does not exist. Not the
 * run's user with a wrong password, which a token service may rightly slow down for every check
 * that logs in as that user.
 */
export function refusedCredentials({ make }: CheckContext): { username: string; password: string } {
  return { username: make.uniqueName('nobody'), password: 'not-a-password' };
}

export function refusedAuth(context: CheckContext): Record<string, string> {
  return registryAuthHeader({ ...refusedCredentials(context), serveraddress: registryUser(context).host });
}

export interface PushedImage {
  /** `host:port/user/name` */
  repository: string;
  tag: string;
  digest: string;
  /** what the push answered */
  messages: StreamMessage[];
}

/** The fixture image tagged `<registry>/<user>/<unique>:v1` and pushed with the user's password; asserts the push went through. */
export async function pushedFixture(context: CheckContext, hint = 'reg'): Promise<PushedImage> {
  const { engine, expect, make, session } = context;
  const user = registryUser(context);
  const repository = `${user.host}/${user.username}/${make.uniqueName(hint)}`;
  const tag = 'v1';
  const tagged = await tagImage(context, session.fixtureImage, `${repository}:${tag}`);
  expect(tagged.status, `tagging ${repository}:${tag}: ${tagged.describe()}`).toBe(201);
  const res = await engine.post(`/images/${repository}/push`, { query: { tag }, headers: passwordAuth(user) });
  expect(res.status, `push: ${res.describe()}`).toBe(200);
  const messages = streamMessages(res);
  expect(streamError(messages), `push of ${repository}:${tag} failed: ${res.describe()}`).toBeUndefined();
  const digest = messages.map((message) => new RegExp(`^${tag}: digest: (sha256:[0-9a-f]{64}) size: \\d+$`).exec(message.status ?? '')?.[1]).find(Boolean);
  expect(digest, `the push's "${tag}: digest: … size: …" line: ${res.describe()}`).toBeDefined();
  make.tag(`${repository}@${digest}`);
  return { repository, tag, digest: digest ?? '', messages };
}

/** POST /images/create?fromImage=…&tag=… with the given X-Registry-Auth (none when undefined). */
export function pullImage({ engine }: CheckContext, repository: string, tag: string, auth: Record<string, string> | undefined): Promise<ApiResponse> {
  return engine.post('/images/create', { query: { fromImage: repository, tag }, ...(auth ? { headers: auth } : {}) });
}
