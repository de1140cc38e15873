/**
 * X-Registry-Auth on service create and update (spec/2 §4.6): the credentials the node pulls the
 * service's image with. The image is the fixture pushed to the run's registry, whose repositories
 * are private, under a name the target no longer has: a task runs only if the pull used them.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { removeImage, streamError, streamMessages, tagImage } from '../image-steps.ts';
import { registryUser, type RegistryUser } from '../registry-steps.ts';
import { createService, inspectService, runningTasks, serviceByName, serviceSpec, updateService } from './swarm-steps.ts';

/**
 * The fixture pushed to the run's registry, its name taken off the target again; returns that name.
 * The push is spec/2 §4.1's: X-Registry-Auth in standard base64 ({@link specAuthHeader}), a JSON
 * stream "like pull" without {error}. dockerd's "<tag>: digest: … size: …" status line, which the
 * spec does not give, is not asked for: when it comes, the digest name goes with the check.
 */
async function privateImage(context: CheckContext): Promise<string> {
  const user = registryUser(context);
  const repository = `${user.host}/${user.username}/${context.make.uniqueName('svc')}`;
  const tag = 'v1';
  const name = `${repository}:${tag}`;
  const tagged = await tagImage(context, context.session.fixtureImage, name);
  context.expect(tagged.status, `tagging ${name}: ${tagged.describe()}`).toBe(201);
  const pushed = await context.engine.post(`/images/${repository}/push`, { query: { tag }, headers: specAuthHeader(user) });
  context.expect(pushed.status, `push: ${pushed.describe()}`).toBe(200);
  const messages = streamMessages(pushed);
  context.expect(streamError(messages), `push of ${name} failed: ${pushed.describe()}`).toBeUndefined();
  const digest = messages.map((message) => new RegExp(`^${tag}: digest: (sha256:[0-9a-f]{64}) size: \\d+$`).exec(message.status ?? '')?.[1]).find(Boolean);
  if (digest) context.make.tag(`${repository}@${digest}`);
  const removed = await removeImage(context, name);
  context.expect(removed.status, `removing ${name}: ${removed.describe()}`).toBe(200);
  return name;
}

/** Whether none of the base64 digits of the 3-byte group starting at `at` is `+` or `/` (62 or 63). */
function cleanGroup(bytes: string, at: number): boolean {
  const [a = 0, b = 0, c = 0] = [bytes.charCodeAt(at), bytes.charCodeAt(at + 1), bytes.charCodeAt(at + 2)];
  const digits = [a >> 2, ((a & 3) << 4) | (b >> 4), ((b & 15) << 2) | (c >> 6), c & 63].slice(0, Math.min(4, bytes.length - at + 1));
  return digits.every((digit) => digit < 62);
}

/** The ways JSON lets one character of a string be written (ASCII only, so that a character is a byte). */
function charForms(char: string): string[] {
  const code = char.charCodeAt(0).toString(16).padStart(4, '0');
  const escaped = [`\\u${code}`, `\\u${code.toUpperCase()}`];
  if (char === '"' || char === '\\') return [`\\${char}`, ...escaped];
  if (char === '/') return ['/', '\\/', ...escaped];
  return char >= ' ' && char <= '~' ? [char, ...escaped] : escaped;
}

const WHITESPACE = ['', ...[' ', '\t', '\n', '\r'].flatMap((first) => [first, ...[' ', '\t', '\n', '\r'].map((second) => first + second)])];

/**
 * X-Registry-Auth as spec/2 §4.1 gives it: "a base64-encoded JSON AuthConfig object", credentials
 * with `auth` left empty. The JSON's whitespace and escapes are picked so that its base64 has neither
 * `+` nor `/`: the value is then the same in standard base64, the spec's, and in base64url, which
 * dockerd decodes the header with.
 */
function specAuthHeader(user: RegistryUser): Record<string, string> {
  const config: Record<string, string> = { username: user.username, password: user.password, email: '', serveraddress: user.host, auth: '' };
  const text = (value: string) => [['"'], ...[...value].map(charForms), ['"']];
  const units: string[][] = [['{']];
  Object.entries(config).forEach(([key, value], index) => {
    units.push(...(index > 0 ? [[','] as string[]] : []), WHITESPACE, ...text(key), WHITESPACE, [':'], WHITESPACE, ...text(value), WHITESPACE);
  });
  units.push(['}']);
  const search = (at: number, written: string): string | undefined => {
    if (at === units.length) return written.length % 3 === 0 || cleanGroup(written, written.length - (written.length % 3)) ? written : undefined;
    for (const form of units[at] ?? []) {
      const next = written + form;
      let ok = true;
      for (let group = Math.floor(written.length / 3) * 3; group + 3 <= next.length; group += 3) ok &&= cleanGroup(next, group);
      const found = ok ? search(at + 1, next) : undefined;
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const json = search(0, '');
  if (json === undefined) throw new Error('no JSON form of the AuthConfig has a base64 without + and /');
  return { 'X-Registry-Auth': Buffer.from(json, 'latin1').toString('base64') };
}

/** `spec` running `image` in one task. */
function runningImage(spec: Record<string, unknown>, image: string): Record<string, unknown> {
  const template = spec.TaskTemplate as { ContainerSpec: Record<string, unknown> };
  return { ...spec, TaskTemplate: { ...template, ContainerSpec: { ...template.ContainerSpec, Image: image } }, Mode: { Replicated: { Replicas: 1 } } };
}

check('swarm.services.create-registry-auth', {
  title: 'a service created with X-Registry-Auth runs a task of an image only the registry has, behind those credentials',
  spec: '2 §4.6, §4.1, 1 §5.3',
  quote: [
    'Creating a service takes the spec of 2.7 and the headers Content-type `application/json` and X-Registry-Auth',
    "The X-Registry-Auth header carries a base64-encoded JSON AuthConfig object: either credentials {username, password, email, serveraddress, auth}",
    'Registry credentials are supplied per request by the client in the header `X-Registry-Auth` (image pull, image push, plugin pull, service create and update)',
  ],
  since: '1.24',
  tags: ['state'],
  requires: ['swarm', 'registry'],
  timeoutMs: 50_000,
  covers: ['2:POST /services/create:header:X-Registry-Auth'],
}, async (context) => {
  const image = await privateImage(context);
  const spec = runningImage(serviceSpec(context), image);
  await createService(context, spec, specAuthHeader(registryUser(context)));
  // the create's answer is "not shown" (spec/2 §4.6): the service is found by its name
  const { ID } = await inspectService(context, spec.Name as string);
  await runningTasks(context, ID, 1);
});

check('swarm.services.update-registry-auth', {
  title: 'an update with X-Registry-Auth to an image only the registry has runs a task of it, behind those credentials',
  spec: '2 §4.6, §4.1, 1 §5.3',
  quote: [
    '| POST /services/{id_or_name}/update | version (integer, required, the version of the service object being updated, avoids conflicting writes); headers Content-type `application/json`, X-Registry-Auth |',
    '200 empty, `text/plain; charset=utf-8` | 200, 404, 500 |',
    "The X-Registry-Auth header carries a base64-encoded JSON AuthConfig object: either credentials {username, password, email, serveraddress, auth}",
    'Registry credentials are supplied per request by the client in the header `X-Registry-Auth` (image pull, image push, plugin pull, service create and update)',
  ],
  since: '1.24',
  tags: ['state'],
  requires: ['swarm', 'registry'],
  timeoutMs: 50_000,
  covers: ['2:POST /services/{id_or_name}/update:header:X-Registry-Auth'],
}, async (context) => {
  const image = await privateImage(context);
  const spec = serviceSpec(context, { replicas: 0 });
  const id = await serviceByName(context, spec);
  const { Version } = await inspectService(context, id);
  const res = await updateService(context, id, Version.Index, { ...runningImage(spec, image), Labels: context.make.labels }, specAuthHeader(registryUser(context)));
  context.expect(res.status, `POST /services/{id}/update status: ${res.describe()}`).toBe(200);
  await runningTasks(context, id, 1);
});
