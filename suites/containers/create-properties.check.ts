/**
 * Create-body validation as properties (spec/1 §2.3, §8): random valid creation bodies are accepted,
 * and a valid body with one field pushed out of its range is refused with 400 and the error body of
 * the version, at the versions the rule exists at. The cases come from the run's seed (the report
 * records it; `--seed` replays them). Each valid body's container is removed as soon as it is
 * created; anything a refused body should not have created goes with the check.
 *
 * The generators stay inside what both the spec and dockerd accept on any host: where dockerd is
 * stricter than the spec (Memory and KernelMemory at least 6MB, an absolute WorkingDir, a known
 * StopSignal, MaximumRetryCount only with on-failure), the valid values keep to dockerd's side; where
 * dockerd takes more than the spec (BlkioWeight 0, MemorySwappiness -1, an empty HostPort, a named
 * volume that does not exist yet), they keep to the spec's: each named volume is created first.
 */
import fc from 'fast-check';
import { check, type CheckContext } from '../../harness/check.ts';
import type { ApiResponse } from '../../harness/client/api-response.ts';
import { assertProperty } from '../../harness/property-check.ts';
import { CLEAN_UP, RUN_LABEL } from '../../harness/resources.ts';
import { atLeast, before, type ApiVersion } from '../../protocol/versions.ts';
import { createContainer } from '../container-steps.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';

const MIB = 1024 * 1024;
/** Cases per check: each costs requests to the target, so a live run stays within a few seconds. */
const VALID_RUNS = 12;
const OUT_OF_RANGE_RUNS = 10;
/** A directory every daemon host has, for the host_path forms of Binds. */
const HOST_DIRECTORY = '/tmp';

/** A bind of the body, made concrete when the request is sent: volume names are unique to the run. */
interface BindPlan {
  source: 'host' | 'volume' | 'anonymous';
  readOnly: boolean;
}

/** A valid creation request as generated: plain data, so that a counterexample reads as JSON. */
interface ValidPlan {
  nameHint: string;
  config: Record<string, unknown>;
  hostConfig: Record<string, unknown>;
  binds: BindPlan[];
}

/** What a rule changes in a valid request: a HostConfig field, the Hostname, or a suffix making the name invalid. */
interface OutOfRange {
  HostConfig?: Record<string, number>;
  Hostname?: string;
  nameSuffix?: string;
}

interface CreateRequest {
  name: string;
  body: Record<string, unknown>;
  /** named volumes its Binds create */
  volumes: string[];
}

const word = fc.stringMatching(/^[a-z0-9]{1,8}$/);
/** An RFC 1123 label, short enough that three of them stay under 63 characters. */
const hostnameLabel = fc.stringMatching(/^[a-zA-Z0-9]([a-zA-Z0-9-]{0,10}[a-zA-Z0-9])?$/);
const hostname = fc.array(hostnameLabel, { minLength: 1, maxLength: 3 }).map((labels) => labels.join('.'));
const memory = fc.integer({ min: 8 * MIB, max: 1024 * MIB });

/** Memory alone, with unlimited swap (-1) or with a larger MemorySwap (spec/1 §2.3: "larger than it"). */
const memoryLimits = fc.oneof(
  fc.record({ Memory: memory }),
  fc.record({ Memory: memory, MemorySwap: fc.constant(-1) }),
  fc.tuple(memory, fc.integer({ min: 1, max: 1024 * MIB })).map(([Memory, extra]) => ({ Memory, MemorySwap: Memory + extra })),
);

/** Ports are strings (spec/1 §2.3); an empty HostPort (dockerd: the daemon chooses) is not one. */
const portBindings = fc.dictionary(
  fc.tuple(fc.integer({ min: 1, max: 65535 }), fc.constantFrom('tcp', 'udp')).map(([port, protocol]) => `${port}/${protocol}`),
  fc.array(fc.integer({ min: 1024, max: 65535 }).map((port) => ({ HostPort: String(port) })), { minLength: 1, maxLength: 2 }),
  { maxKeys: 3 },
);

/** Published ports only where they mean something: on the bridge network. */
const networking = fc.oneof(
  fc.record({ NetworkMode: fc.constant('bridge'), PortBindings: portBindings }, { requiredKeys: [] }),
  fc.record({ NetworkMode: fc.constantFrom('host', 'none') }),
);

function restartPolicy(version: ApiVersion) {
  return fc.oneof(
    fc.constantFrom({ Name: '' }, { Name: 'always' }, ...(atLeast(version, '1.21') ? [{ Name: 'unless-stopped' }] : [])),
    fc.integer({ min: 0, max: 10 }).map((MaximumRetryCount) => ({ Name: 'on-failure', MaximumRetryCount })),
  );
}

/** Binds forms of spec/1 §2.3: host_path or volume_name, each :ro or not, and up to 1.24 a bare container path. */
function binds(version: ApiVersion) {
  const sources: BindPlan['source'][] = ['host', 'volume', ...(before(version, '1.25') ? ['anonymous' as const] : [])];
  return fc.array(fc.record({ source: fc.constantFrom(...sources), readOnly: fc.boolean() }), { maxLength: 3 });
}

/** A valid creation request at `version`: the fields of that version only, each within its limits. */
function validPlan(version: ApiVersion): fc.Arbitrary<ValidPlan> {
  const config = fc.record({
    Cmd: fc.array(word, { maxLength: 3 }).map((args) => ['echo', ...args]),
    Env: fc.array(fc.tuple(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}$/), fc.string({ maxLength: 12 })).map(([name, value]) => `${name}=${value}`), { maxLength: 3 }),
    Labels: fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9.-]{0,15}$/).filter((key) => key !== RUN_LABEL), fc.string({ maxLength: 12 }), { maxKeys: 3 }),
    WorkingDir: fc.array(word, { maxLength: 3 }).map((segments) => `/${segments.join('/')}`),
    Hostname: hostname,
    ...(atLeast(version, '1.21') ? { StopSignal: fc.constantFrom('SIGTERM', 'SIGINT', 'SIGKILL', 'SIGHUP', 'SIGUSR1', 'SIGQUIT') } : {}),
  }, { requiredKeys: ['Cmd'] });
  const limits = fc.record({
    BlkioWeight: fc.integer({ min: 10, max: 1000 }),
    MemorySwappiness: fc.integer({ min: 0, max: 100 }),
    // KernelMemory is a [1.21+] field with a 4M floor from 1.22; dockerd's floor is 6MB at every version.
    ...(atLeast(version, '1.21') ? { KernelMemory: fc.integer({ min: 6 * MIB, max: 512 * MIB }) } : {}),
    ...(atLeast(version, '1.25') ? { ShmSize: fc.integer({ min: 1, max: 1024 * MIB }) } : {}),
    RestartPolicy: restartPolicy(version),
  }, { requiredKeys: [] });
  const hostConfig = fc
    .tuple(limits, fc.option(memoryLimits, { nil: undefined }), fc.option(networking, { nil: undefined }))
    .map(([fields, memoryFields, network]) => ({ ...fields, ...memoryFields, ...network }));
  return fc.record({ nameHint: fc.stringMatching(/^[a-zA-Z0-9_-]{1,6}$/), config, hostConfig, binds: binds(version) });
}

/** The request a plan stands for, named and with volume names unique to this run. */
function concreteRequest({ make, session }: CheckContext, plan: ValidPlan): CreateRequest {
  const volumes: string[] = [];
  const bindList = plan.binds.map(({ source, readOnly }, index) => {
    const target = `/mnt/shipshape-${index}`;
    if (source === 'anonymous') return target;
    const from = source === 'host' ? HOST_DIRECTORY : make.uniqueName('vol');
    if (source === 'volume') volumes.push(from);
    return `${from}:${target}${readOnly ? ':ro' : ''}`;
  });
  const hostConfig = bindList.length > 0 ? { ...plan.hostConfig, Binds: bindList } : plan.hostConfig;
  return { name: make.uniqueName(plan.nameHint), body: { Image: session.fixtureImage, ...plan.config, HostConfig: hostConfig }, volumes };
}

/** Removes a named volume; a volume that does not exist is already gone. */
async function removeVolume({ engine }: CheckContext, name: string): Promise<void> {
  const res = await engine.unversioned(CLEAN_UP).delete(`/volumes/${name}`);
  if (res.status !== 204 && res.status !== 404) throw new Error(`could not remove volume ${name}: ${res.describe()}`);
}

/**
 * Creates the named volumes its Binds name (spec/2 §4.3; §2.3 does not say a bind creates one), then
 * sends the create; the volumes are removed with the check, after its container.
 */
async function sendCreate(context: CheckContext, request: CreateRequest): Promise<ApiResponse> {
  for (const volume of request.volumes) {
    context.make.track(`volume ${volume}`, () => removeVolume(context, volume));
    const res = await context.engine.post('/volumes/create', { json: { Name: volume, Labels: context.make.labels } });
    if (res.status !== 201) throw new Error(`setup: could not create volume ${volume}: ${res.describe()}`);
  }
  return createContainer(context, request.body, request.name);
}

check('containers.create.property-valid', {
  title: 'random valid creation bodies of the version (Cmd, Env, Labels, WorkingDir, Hostname, resource limits, ports, Binds, network, restart policy) answer 201',
  spec: '1 §2.3, §4.1',
  quote: [
    '| Cmd | string or array of string | command to run |',
    '| Env | array of string | each in the form VAR=value |',
    '| Labels | object string to string |',
    '| WorkingDir | string |',
    '| Hostname | string | hostname; from 1.24 it must be a valid RFC 1123 hostname',
    '| StopSignal | string or unsigned integer | [1.21+] signal used to stop; default SIGTERM |',
    '| Memory | integer | limit in bytes |',
    '| MemorySwap | integer | memory plus swap; -1 means unlimited swap; must be used with Memory and be larger than it |',
    '| BlkioWeight | integer | 10 to 1000 |',
    '| MemorySwappiness | integer | 0 to 100 |',
    '| KernelMemory | integer | [1.21+] bytes; from 1.22 minimum value 4M |',
    '| ShmSize | integer | [1.25] size of /dev/shm in bytes, greater than 0; default 64 MB |',
    '| PortBindings | object | key `<port>/<protocol>` mapped to array of {HostPort: string}; the port is a string, not an integer |',
    '| Binds | array of string | forms: host_path:container_path; host_path:container_path:ro; volume_name:container_path; volume_name:container_path:ro; up to 1.24 also a bare container_path creating a new volume |',
    '| NetworkMode | string | bridge, host, none, `container:<name or id>`; any other value is the name of a custom network |',
    '| RestartPolicy | object | Name: empty (default, no restart), always, on-failure, unless-stopped (unless-stopped from 1.21); MaximumRetryCount (integer) applies to on-failure |',
    '| POST /containers/create | name (must match `/?[a-zA-Z0-9_-]+`) | creation body (2.3) | 201 {Id, Warnings} |',
    '| DELETE /containers/{id_or_name} | v (remove associated volumes, default false), force (kill then remove, default false) | none | 204 |',
  ],
  since: '1.18',
  tags: ['property'],
  // Each case creates up to three volumes, the container, then removes them all: on a busy target that is more than 30 s.
  timeoutMs: 55_000,
  covers: [
    '1:POST /containers/create',
    '1:POST /containers/create:body:Cmd',
    '1:POST /containers/create:body:Env',
    '1:POST /containers/create:body:Labels',
    '1:POST /containers/create:body:WorkingDir',
    '1:POST /containers/create:body:Hostname',
    '1:POST /containers/create:body:StopSignal',
    '1:POST /containers/create:body:HostConfig.Memory',
    '1:POST /containers/create:body:HostConfig.MemorySwap',
    '1:POST /containers/create:body:HostConfig.BlkioWeight',
    '1:POST /containers/create:body:HostConfig.MemorySwappiness',
    '1:POST /containers/create:body:HostConfig.KernelMemory',
    '1:POST /containers/create:body:HostConfig.ShmSize',
    '1:POST /containers/create:body:HostConfig.PortBindings',
    '1:POST /containers/create:body:HostConfig.Binds',
    '1:POST /containers/create:body:HostConfig.NetworkMode',
    '1:POST /containers/create:body:HostConfig.RestartPolicy',
    '1:POST /containers/create:status:201',
  ],
}, async (context) => {
  await assertProperty(context, fc.asyncProperty(validPlan(context.version), async (plan) => {
    const request = concreteRequest(context, plan);
    const res = await sendCreate(context, request);
    context.expect(res.status, `create status for ${JSON.stringify(request.body)}: ${res.text().trim()}`).toBe(201);
    const removal = await context.engine.delete(`/containers/${res.json<{ Id: string }>().Id}`, { query: { force: 1, v: 1 } });
    context.expect(removal.status, 'DELETE /containers/{id} status').toBe(204);
    for (const volume of request.volumes) await removeVolume(context, volume);
  }), VALID_RUNS);
});

/** Characters that neither the spec's name pattern nor dockerd's allows after a name's first character. */
const NAME_BREAKERS = [...' !"#$%&\'()*+,/:;<=>?@[\\]^`{|}~', 'é'];

/** One rule each, so that a target that lacks one of them fails that check alone. */
const OUT_OF_RANGE_RULES: { id: string; title: string; covers: string[]; spec: string; quote: string[]; since: ApiVersion; requires?: string[]; change: fc.Arbitrary<OutOfRange> }[] = [
  {
    id: 'containers.create.property-blkio-weight',
    title: 'a valid body with HostConfig.BlkioWeight outside 10–1000 (and not 0) answers 400',
    covers: ['1:POST /containers/create:body:HostConfig.BlkioWeight', '1:POST /containers/create:status:400'],
    spec: '1 §8, §7.1, §7.2',
    quote: ['| BlkioWeight | 10 to 1000 |', '400 bad parameter', 'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.'],
    since: '1.18',
    // Only a host with a block I/O weight keeps one: elsewhere a daemon may drop the field with a warning.
    requires: ['blkio-weight'],
    // Not negative nor above 65535: the Go type is uint16, and dockerd does not decode those (500).
    change: fc.oneof(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1001, max: 65535 })).map((BlkioWeight) => ({ HostConfig: { BlkioWeight } })),
  },
  {
    id: 'containers.create.property-memory-swappiness',
    title: 'a valid body with HostConfig.MemorySwappiness outside 0–100 (and not -1) answers 400',
    covers: ['1:POST /containers/create:body:HostConfig.MemorySwappiness', '1:POST /containers/create:status:400'],
    spec: '1 §8, §7.1, §7.2',
    quote: ['| MemorySwappiness | 0 to 100 |', '400 bad parameter', 'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.'],
    since: '1.18',
    change: fc.oneof(fc.integer({ min: -(2 ** 31), max: -2 }), fc.integer({ min: 101, max: 2 ** 31 })).map((MemorySwappiness) => ({ HostConfig: { MemorySwappiness } })),
  },
  {
    id: 'containers.create.property-kernel-memory',
    title: 'a valid body with HostConfig.KernelMemory set below 4M (under either reading of 4M) answers 400 from 1.22',
    covers: ['1:POST /containers/create:body:HostConfig.KernelMemory', '1:POST /containers/create:status:400'],
    spec: '1 §8, §7.1, §7.2',
    quote: ['| KernelMemory minimum (from 1.22) | 4M |', '400 bad parameter', 'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.'],
    since: '1.22',
    // Set limits only: 0 means none, and dockerd reads a negative KernelMemory as none too (201).
    // "4M" may be 4 000 000 bytes or 4 MiB: below the smaller is below the minimum under both.
    change: fc.integer({ min: 1, max: 4_000_000 - 1 }).map((KernelMemory) => ({ HostConfig: { KernelMemory } })),
  },
  {
    id: 'containers.create.property-memory-swap',
    title: 'a valid body with HostConfig.MemorySwap set below Memory answers 400',
    covers: ['1:POST /containers/create:body:HostConfig.Memory', '1:POST /containers/create:body:HostConfig.MemorySwap', '1:POST /containers/create:status:400'],
    spec: '1 §2.3, §7.1, §7.2',
    quote: ['| MemorySwap | integer | memory plus swap; -1 means unlimited swap; must be used with Memory and be larger than it |', '400 bad parameter', 'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.'],
    since: '1.18',
    change: memory.chain((Memory) => fc.integer({ min: 1, max: Memory - 1 }).map((MemorySwap) => ({ HostConfig: { Memory, MemorySwap } }))),
  },
  {
    id: 'containers.create.property-shm-size',
    title: 'a valid body with a negative HostConfig.ShmSize answers 400 at 1.25',
    covers: ['1:POST /containers/create:body:HostConfig.ShmSize', '1:POST /containers/create:status:400'],
    spec: '1 §8, §7.1, §7.2',
    quote: ['| ShmSize | greater than 0; default 64 MB |', '400 bad parameter', 'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.'],
    since: '1.25',
    change: fc.integer({ min: -(2 ** 31), max: -1 }).map((ShmSize) => ({ HostConfig: { ShmSize } })),
  },
  {
    id: 'containers.create.property-hostname',
    title: 'a valid body with a Hostname that is not RFC 1123 (a bad character, a label edged with -, an empty label, over 63 characters) answers 400 from 1.24',
    covers: ['1:POST /containers/create:body:Hostname', '1:POST /containers/create:status:400', '1:version-rule:1.24:hostname-validation'],
    spec: '1 §2.3, §7.1, §7.2',
    quote: ['| Hostname | string | hostname; from 1.24 it must be a valid RFC 1123 hostname', '400 bad parameter', 'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.'],
    since: '1.24',
    change: fc.oneof(
      fc.tuple(hostname, fc.constantFrom(...NAME_BREAKERS, '_')).map(([name, bad]) => `${name}${bad}x`),
      fc.tuple(hostnameLabel, fc.boolean()).map(([label, leading]) => (leading ? `-${label}` : `${label}-`)),
      fc.tuple(hostnameLabel, hostnameLabel).map(([left, right]) => `${left}..${right}`),
      fc.integer({ min: 64, max: 100 }).map((length) => 'h'.repeat(length)),
    ).map((Hostname) => ({ Hostname })),
  },
  {
    id: 'containers.create.property-name',
    title: 'a valid body under a name with a character outside [a-zA-Z0-9_-] (and not .) answers 400',
    covers: ['1:POST /containers/create:query:name', '1:POST /containers/create:status:400'],
    spec: '1 §8, §7.1, §7.2',
    quote: ['| Container name pattern | `/?[a-zA-Z0-9_-]+` |', '400 bad parameter', 'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.'],
    since: '1.18',
    change: fc.tuple(fc.constantFrom(...NAME_BREAKERS), fc.stringMatching(/^[a-zA-Z0-9_-]{0,4}$/)).map(([bad, tail]) => ({ nameSuffix: `${bad}${tail}` })),
  },
];

/** The valid request with the one field out of its range. */
function withOutOfRange(request: CreateRequest, change: OutOfRange): CreateRequest {
  const body: Record<string, unknown> = { ...request.body, HostConfig: { ...(request.body.HostConfig as Record<string, unknown>), ...change.HostConfig } };
  if (change.Hostname !== undefined) body.Hostname = change.Hostname;
  return { ...request, name: `${request.name}${change.nameSuffix ?? ''}`, body };
}

for (const { id, change, ...meta } of OUT_OF_RANGE_RULES) {
  check(id, { ...meta, tags: ['property', 'error'] }, async (context) => {
    await assertProperty(context, fc.asyncProperty(validPlan(context.version), change, async (plan, outOfRange) => {
      const request = withOutOfRange(concreteRequest(context, plan), outOfRange);
      const res = await sendCreate(context, request);
      context.expect(res.status, `create status for ${JSON.stringify(outOfRange)} in name ${JSON.stringify(request.name)}, body ${JSON.stringify(request.body)}`).toBe(400);
      expectErrorBodyOfVersion(context, res);
    }), OUT_OF_RANGE_RUNS);
  });
}
