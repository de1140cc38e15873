/**
 * The decoding rules the spec states for JSON request bodies, as properties over every engine body
 * whose fields it types (spec/1 §2.3 creation body, §2.5 exec bodies; spec/2 §4.1 commit, §4.3 volume
 * create, §4.4 network create, connect and disconnect):
 *
 * - spec/1 §1 "the daemon ignores unknown properties in incoming messages": a valid body with random
 *   extra properties (names no field has in any case: `Shipshape…`, random JSON values) placed in
 *   the body or in one of its typed objects gets the body's success status;
 * - docker-level, the fields' JSON types (spec/1 §2.3, §2.5, spec/2 §4.3, §4.4): a valid body with one
 *   typed field given a value of another JSON type is refused, as dockerd refuses it (400, or 500 for
 *   container create): the spec types the fields but gives no answer for a value of another type.
 *
 * One check per body and rule (`system.json.property-unknown-<body>`, `…-wrong-type-<body>`), so that
 * a target's answer for one body does not hide the others'. What the spec leaves open stays out: `null` (absent or refused?), field names in another case (see
 * containers.create.field-names-any-case), duplicate keys, an empty body, a fraction for an integer,
 * and fields whose type the row does not give (Driver, network Name, Container, IPAM). The exec start
 * body is in the first rule only: its row lists no status for a refusal (200, 404, 409). Fields the
 * spec shows from a version on (network Internal and EnableIPv6 1.23, Labels 1.25, volume Labels
 * 1.25, exec DetachKeys 1.25) are given a wrong type only from then. POST /auth needs a registry and
 * container update's fields are not shown; swarm services need a swarm: not here.
 */
import fc from 'fast-check';
import { check, type CheckContext } from '../../harness/check.ts';
import type { ApiResponse } from '../../harness/client/api-response.ts';
import { assertProperty } from '../../harness/property-check.ts';
import { atLeast, type ApiVersion } from '../../protocol/versions.ts';
import { startContainer } from '../container-steps.ts';

const UNKNOWN_RUNS = 8;
const WRONG_TYPE_RUNS = 12;

/** The JSON types the spec gives body fields. */
type FieldType = 'string' | 'boolean' | 'integer' | 'string-array' | 'string-or-string-array' | 'string-map' | 'map' | 'object';

interface TypedField {
  /** where the field is: a top-level name, or `HostConfig.Name` */
  path: string[];
  type: FieldType;
  /** the first version the spec shows it at */
  since?: ApiVersion;
}

/** The objects a check's world holds for the bodies that act on something. */
interface World {
  /** a running `top`: exec instances are made in it */
  running?: string;
  /** a created container: commit's source, and what connect and disconnect move (from 1.21) */
  created?: string;
  /** a bridge network of the check's (from 1.21) */
  network?: string;
}

interface Body {
  name: string;
  /** the check ids' last part */
  slug: string;
  /** the passages of the body's row and fields, and the row itself */
  spec: { row: string; fields?: string };
  row: string;
  /** the spec's words for the typed fields' types */
  typeQuote: string[];
  covers: string[];
  /** what the world must hold for it */
  needs: ('running' | 'created' | 'network')[];
  since: ApiVersion;
  /** the body's success status */
  success: number;
  /** the objects extra properties may go in: [] is the body itself */
  objects: string[][];
  typed: TypedField[];
  /** sends a valid body with `change` applied to it; tracks what it makes */
  send: (context: CheckContext, world: World, change: (body: Record<string, unknown>) => void) => Promise<ApiResponse>;
}

function field(path: string, type: FieldType, since?: ApiVersion): TypedField {
  return { path: path.split('.'), type, ...(since !== undefined && { since }) };
}

/** Sets `path` in `body` to `value`, making the objects on the way. */
function setPath(body: Record<string, unknown>, path: string[], value: unknown): void {
  let at = body;
  for (const key of path.slice(0, -1)) {
    if (typeof at[key] !== 'object' || at[key] === null || Array.isArray(at[key])) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[path[path.length - 1] ?? ''] = value;
}

function applied(base: Record<string, unknown>, change: (body: Record<string, unknown>) => void): Record<string, unknown> {
  const body = structuredClone(base);
  change(body);
  return body;
}

async function createdContainer(context: CheckContext, body: Record<string, unknown>): Promise<ApiResponse> {
  const { engine, make } = context;
  const name = make.uniqueName('json');
  const res = await engine.post('/containers/create', { query: { name }, json: body });
  if (res.status === 201) {
    const { Id } = res.json<{ Id: string }>();
    make.track(`container ${name}`, async () => {
      await engine.delete(`/containers/${Id}`, { query: { force: 1, v: 1 } });
    });
  }
  return res;
}

/** An exec instance of `true` in the running container, for the start body. */
async function execOfTrue({ engine }: CheckContext, world: World): Promise<string> {
  const res = await engine.post(`/containers/${world.running}/exec`, { json: { AttachStdout: true, Cmd: ['true'] } });
  if (res.status !== 201) throw new Error(`setup: could not create an exec instance: ${res.describe()}`);
  return res.json<{ Id: string }>().Id;
}

const CONFIG_FIELDS = [
  field('Hostname', 'string'),
  field('Domainname', 'string'),
  field('User', 'string'),
  field('AttachStdout', 'boolean'),
  field('Tty', 'boolean'),
  field('OpenStdin', 'boolean'),
  field('StdinOnce', 'boolean'),
  field('Env', 'string-array'),
  field('Labels', 'string-map'),
  field('Cmd', 'string-or-string-array'),
  field('WorkingDir', 'string'),
  field('NetworkDisabled', 'boolean'),
];

const BODIES: Body[] = [
  {
    name: 'POST /containers/create',
    slug: 'container-create',
    spec: { row: '1 §4.1', fields: '1 §2, §2.3' },
    row: '| POST /containers/create | name (must match `/?[a-zA-Z0-9_-]+`) | creation body (2.3) | 201 {Id, Warnings} | 201, 400, 404, 406, 409, 500 |',
    typeQuote: [
      'Types are given as JSON types.',
      '| Hostname | string |',
      '| Domainname | string | domain name |',
      '| User | string | user inside the container |',
      '| AttachStdin, AttachStdout, AttachStderr | boolean | attach to the stream |',
      '| Tty | boolean |',
      '| OpenStdin | boolean | open stdin |',
      '| StdinOnce | boolean |',
      '| Env | array of string |',
      '| Labels | object string to string |',
      '| Cmd | string or array of string | command to run |',
      '| WorkingDir | string |',
      '| NetworkDisabled | boolean | true disables networking |',
      '| Entrypoint | string or array of string |',
      '| ExposedPorts | object |',
      '| Binds | array of string |',
      '| Memory | integer | limit in bytes |',
      '| CpuShares | integer | relative CPU weight |',
      '| Privileged | boolean |',
      '| ReadonlyRootfs | boolean |',
      '| PublishAllPorts | boolean | random host port for every exposed port |',
      '| NetworkMode | string |',
    ],
    covers: ['1:POST /containers/create:status:201'],
    needs: [],
    since: '1.18',
    success: 201,
    objects: [[], ['HostConfig']],
    typed: [
      ...CONFIG_FIELDS,
      field('Entrypoint', 'string-or-string-array'),
      field('ExposedPorts', 'object'),
      field('HostConfig.Binds', 'string-array'),
      field('HostConfig.Memory', 'integer'),
      field('HostConfig.CpuShares', 'integer'),
      field('HostConfig.Privileged', 'boolean'),
      field('HostConfig.ReadonlyRootfs', 'boolean'),
      field('HostConfig.PublishAllPorts', 'boolean'),
      field('HostConfig.NetworkMode', 'string'),
    ],
    send: (context, _world, change) => createdContainer(context, applied({ Image: context.session.fixtureImage, Cmd: ['true'], Labels: context.make.labels, HostConfig: {} }, change)),
  },
  {
    name: 'POST /containers/{id}/exec',
    slug: 'exec-create',
    spec: { row: '1 §4.2', fields: '1 §2, §2.5' },
    row: '| POST /containers/{id_or_name}/exec | | exec creation body (2.5); the engine client no longer sends a Container field from 1.24 | 201 {Id, Warnings} | 201, 404, 409 (container paused), 500 |',
    typeQuote: ['Creation body: AttachStdin, AttachStdout, AttachStderr (boolean), DetachKeys (string, [1.25]), Tty (boolean), Cmd (string or array of string).'],
    covers: ['1:POST /containers/{id_or_name}/exec'],
    needs: ['running'],
    since: '1.18',
    success: 201,
    objects: [[]],
    typed: [field('AttachStdin', 'boolean'), field('AttachStdout', 'boolean'), field('AttachStderr', 'boolean'), field('Tty', 'boolean'), field('Cmd', 'string-or-string-array'), field('DetachKeys', 'string', '1.25')],
    send: ({ engine }, world, change) => engine.post(`/containers/${world.running}/exec`, { json: applied({ AttachStdout: true, Cmd: ['true'] }, change) }),
  },
  {
    name: 'POST /exec/{id}/start',
    slug: 'exec-start',
    spec: { row: '1 §4.2' },
    row: '| POST /exec/{id}/start | | {Detach, Tty} | 200 `application/vnd.engine.raw-stream`; with Detach true the call returns after the command starts; otherwise an interactive session is set up, with stream behaviour like attach | 200, 404 (no such exec instance), 409 (container paused or, from 1.21, stopped) |',
    typeQuote: [],
    covers: ['1:POST /exec/{id}/start'],
    needs: ['running'],
    since: '1.18',
    success: 200,
    // the row lists 200, 404 and 409 only: no status for a bad parameter, so no wrong types
    objects: [[]],
    typed: [],
    send: async (context, world, change) => context.engine.post(`/exec/${await execOfTrue(context, world)}/start`, { json: applied({ Detach: true }, change) }),
  },
  {
    name: 'POST /commit',
    slug: 'commit',
    spec: { row: '2 §4.1', fields: '1 §2, §2.3' },
    row: '| POST /commit | container (source), repo, tag, comment, author, pause (boolean, pause the container during commit), changes (build instructions applied while committing) | JSON container configuration (Hostname, Domainname, User, Attach flags, Tty, OpenStdin, StdinOnce, Env, Cmd, Mounts, Labels, WorkingDir, NetworkDisabled, ExposedPorts) | 201 {Id} | 201, 404, 500 |',
    typeQuote: [
      'Types are given as JSON types.',
      '| Hostname | string |',
      '| Domainname | string | domain name |',
      '| User | string | user inside the container |',
      '| AttachStdin, AttachStdout, AttachStderr | boolean | attach to the stream |',
      '| Tty | boolean |',
      '| OpenStdin | boolean | open stdin |',
      '| StdinOnce | boolean |',
      '| Env | array of string |',
      '| Labels | object string to string |',
      '| Cmd | string or array of string | command to run |',
      '| WorkingDir | string |',
      '| NetworkDisabled | boolean | true disables networking |',
    ],
    covers: ['2:POST /commit'],
    needs: ['created'],
    since: '1.18',
    success: 201,
    objects: [[]],
    typed: CONFIG_FIELDS,
    send: async ({ engine, make }, world, change) => {
      const res = await engine.post('/commit', { query: { container: world.created }, json: applied({ Cmd: ['true'], Labels: make.labels }, change) });
      if (res.status === 201) make.image(res.json<{ Id: string }>().Id);
      return res;
    },
  },
  {
    name: 'POST /volumes/create',
    slug: 'volume-create',
    spec: { row: '2 §4.3', fields: '1 §2' },
    row: '| POST /volumes/create | | {Name (string; generated if omitted), Driver (default local), DriverOpts (map string to string, passed to the driver), Labels (map)} | 201 volume | 201, 500 |',
    typeQuote: ['Types are given as JSON types.'],
    covers: ['2:POST /volumes/create'],
    needs: [],
    since: '1.21',
    success: 201,
    objects: [[]],
    typed: [field('Name', 'string'), field('DriverOpts', 'string-map'), field('Labels', 'map', '1.25')],
    send: async ({ engine, make }, _world, change) => {
      const name = make.uniqueName('json');
      make.volume(name);
      const res = await engine.post('/volumes/create', { json: applied({ Name: name, Labels: make.labels }, change) });
      const made = res.status === 201 ? res.json<{ Name?: unknown }>().Name : undefined;
      if (typeof made === 'string' && made !== name) make.volume(made);
      return res;
    },
  },
  {
    name: 'POST /networks/create',
    slug: 'network-create',
    spec: { row: '2 §4.4', fields: '1 §2' },
    row: '| POST /networks/create | | {Name (mandatory), CheckDuplicate (boolean), Driver (default bridge), Internal (boolean), IPAM (optional), EnableIPv6 (boolean), Options (map), Labels (map)} | 201 {Id, Warning} | 201, 404 (plugin not found), 500 |',
    typeQuote: ['Types are given as JSON types.'],
    covers: ['2:POST /networks/create'],
    needs: [],
    since: '1.21',
    success: 201,
    objects: [[]],
    typed: [field('CheckDuplicate', 'boolean'), field('Internal', 'boolean', '1.23'), field('EnableIPv6', 'boolean', '1.23'), field('Options', 'map'), field('Labels', 'map', '1.25')],
    send: async ({ engine, make }, _world, change) => {
      const res = await engine.post('/networks/create', { json: applied({ Name: make.uniqueName('json'), Labels: make.labels }, change) });
      if (res.status === 201) make.network(res.json<{ Id: string }>().Id);
      return res;
    },
  },
  {
    name: 'POST /networks/{id}/connect',
    slug: 'network-connect',
    spec: { row: '2 §4.4' },
    row: '| POST /networks/{id}/connect | | {Container (id or name), EndpointConfig {IPAMConfig {IPv4Address, IPv6Address}}} | 200 | 200, 403 (swarm-scoped network), 404, 500 |',
    typeQuote: [],
    covers: ['2:POST /networks/{id}/connect'],
    needs: ['created', 'network'],
    since: '1.21',
    success: 200,
    objects: [[], ['EndpointConfig']],
    typed: [],
    send: async ({ engine }, world, change) => {
      const res = await engine.post(`/networks/${world.network}/connect`, { json: applied({ Container: world.created, EndpointConfig: {} }, change) });
      if (res.status === 200) await disconnect(engine, world);
      return res;
    },
  },
  {
    name: 'POST /networks/{id}/disconnect',
    slug: 'network-disconnect',
    spec: { row: '2 §4.4', fields: '1 §2' },
    row: '| POST /networks/{id}/disconnect | | {Container, Force (boolean)} | 200 | 200, 403 (swarm-scoped network), 404, 500 |',
    typeQuote: ['Types are given as JSON types.'],
    covers: ['2:POST /networks/{id}/disconnect'],
    needs: ['created', 'network'],
    since: '1.21',
    success: 200,
    objects: [[]],
    typed: [field('Force', 'boolean')],
    send: async ({ engine }, world, change) => {
      const connected = await engine.post(`/networks/${world.network}/connect`, { json: { Container: world.created } });
      if (connected.status !== 200) throw new Error(`setup: could not connect the container: ${connected.describe()}`);
      const res = await engine.post(`/networks/${world.network}/disconnect`, { json: applied({ Container: world.created, Force: false }, change) });
      if (res.status !== 200) await disconnect(engine, world);
      return res;
    },
  },
];

/** Takes the world's container off its network again (at the version under test: the next case needs it off). */
async function disconnect(engine: CheckContext['engine'], world: World): Promise<void> {
  const res = await engine.post(`/networks/${world.network}/disconnect`, { json: { Container: world.created, Force: true } });
  if (res.status !== 200) throw new Error(`setup: could not disconnect the container again: ${res.describe()}`);
}

/** What `body` acts on, made at the version under test. */
async function makeWorld(context: CheckContext, body: Body): Promise<World> {
  const { make, session, engine } = context;
  const world: World = {};
  if (body.needs.includes('running')) {
    world.running = await make.container({ Image: session.fixtureImage, Cmd: ['top'] });
    await startContainer(context, world.running);
  }
  if (body.needs.includes('created')) world.created = await make.container({ Image: session.fixtureImage, Cmd: ['true'] });
  if (body.needs.includes('network')) {
    const res = await engine.post('/networks/create', { json: { Name: make.uniqueName('jsonnet'), Labels: make.labels } });
    if (res.status !== 201) throw new Error(`setup: could not create a network: ${res.describe()}`);
    world.network = res.json<{ Id: string }>().Id;
    make.network(world.network);
  }
  return world;
}

const word = fc.stringMatching(/^[a-z0-9]{1,6}$/);
const text = fc.string({ maxLength: 6 });
/** JSON values of every kind but null (what null means the spec does not say). */
const notNull = fc.jsonValue({ maxDepth: 1 }).filter((value) => value !== null);
const aNumber = fc.oneof(fc.integer({ min: -1000, max: 100_000 }), fc.constantFrom(0, 1));
const anArray = fc.array(text, { maxLength: 2 });
const anObject = fc.dictionary(word, text, { maxKeys: 2 });
const notStringElement = fc.oneof(aNumber, fc.boolean(), anObject);

/** A value of another JSON type than `type` gives (null never). */
function wrongValue(type: FieldType): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string': return fc.oneof(aNumber, fc.boolean(), anArray, anObject);
    case 'boolean': return fc.oneof(text, aNumber, anArray, anObject);
    case 'integer': return fc.oneof(text, fc.boolean(), fc.array(aNumber, { maxLength: 2 }), anObject);
    case 'string-array': return fc.oneof(text, aNumber, fc.boolean(), anObject, fc.tuple(anArray, notStringElement).map(([strings, odd]) => [...strings, odd]));
    case 'string-or-string-array': return fc.oneof(aNumber, fc.boolean(), anObject, fc.tuple(anArray, notStringElement).map(([strings, odd]) => [...strings, odd]));
    case 'string-map': return fc.oneof(text, aNumber, fc.boolean(), anArray, fc.tuple(word, notStringElement).map(([key, odd]) => ({ [key]: odd })));
    case 'map':
    case 'object': return fc.oneof(text, aNumber, fc.boolean(), anArray);
  }
}

/** Extra properties: names no field of any body has, in any case; any JSON values. */
const unknownProperties = fc.dictionary(fc.stringMatching(/^[A-Za-z0-9_]{1,10}$/).map((name) => `Shipshape${name}`), notNull.map((value) => value as unknown), { minKeys: 1, maxKeys: 3 });

const UNKNOWN = 'Open schema: the daemon ignores unknown properties in incoming messages.';
/** dockerd's refusals of a field of another JSON type: 400 for most bodies, 500 for container create ("json: cannot unmarshal …") */
const REFUSED = [400, 500];

for (const body of BODIES) {
  check(`system.json.property-unknown-${body.slug}`, {
    title: `${body.name} with random unknown properties, in the body${body.objects.length > 1 ? ` or its ${body.objects.slice(1).map((at) => at.join('.')).join(', ')}` : ''}, gets its success status ${body.success}`,
    spec: `1 §1, ${body.spec.row}`,
    quote: [UNKNOWN, body.row],
    since: body.since,
    tags: ['property', 'schema'],
    covers: body.covers,
  }, async (context) => {
    const world = await makeWorld(context, body);
    const cases = fc.record({ at: fc.constantFrom(...body.objects), extra: unknownProperties });
    await assertProperty(context, fc.asyncProperty(cases, async ({ at, extra }) => {
      const res = await body.send(context, world, (sent) => {
        for (const [key, value] of Object.entries(extra)) setPath(sent, [...at, key], value);
      });
      context.expect(res.status, `${body.name} with unknown properties ${JSON.stringify(extra)} in ${at.length === 0 ? 'the body' : at.join('.')}: ${res.describe()}`).toBe(body.success);
    }), UNKNOWN_RUNS);
  });

  if (body.typed.length === 0 || body.spec.fields === undefined) continue;
  const fields = body.spec.fields;
  check(`system.json.property-wrong-type-${body.slug}`, {
    title: `${body.name} with one field given a value of another JSON type than the spec gives it is refused, 400 or 500, as dockerd refuses it`,
    spec: `${fields}, §7.2, ${body.spec.row}`,
    // The spec types the fields but says nothing of a value of another type (refused? with which status?
    // the rows of exec create, commit, volume and network create and disconnect list no 400): dockerd's.
    level: 'docker',
    seen: 'dockerd 20.10.24',
    since: body.since,
    tags: ['property', 'error'],
  }, async (context) => {
    const { version } = context;
    const world = await makeWorld(context, body);
    const typed = body.typed.filter((candidate) => candidate.since === undefined || atLeast(version, candidate.since));
    const cases = fc.constantFrom(...typed).chain((chosen) => fc.record({ field: fc.constant(chosen.path.join('.')), value: wrongValue(chosen.type) }));
    await assertProperty(context, fc.asyncProperty(cases, async ({ field: path, value }) => {
      const res = await body.send(context, world, (sent) => setPath(sent, path.split('.'), value));
      context.expect(REFUSED, `${body.name} with ${path} ${JSON.stringify(value)}: expected 400 or 500: ${res.describe()}`).toContain(res.status);
    }), WRONG_TYPE_RUNS);
  });
}
