/**
 * Creation fields of Docker's API that the spec does not list (spec/1 §2.3 names neither these
 * HostConfig fields nor Config.StopTimeout), and what dockerd makes of some: a create keeps each and
 * inspect shows it back; a memory limit alone gets twice as much memory and swap; StopTimeout is the
 * wait of a stop that gives none. To the spec they are unknown properties, which the daemon ignores
 * (spec/1 §1): the `-accepted` twins assert only that a create holding them is accepted. An unknown
 * log driver is refused (spec level: §2.3 lists the Type values).
 */
import { check } from '../../harness/check.ts';
import { createContainer, exitedState, inspectContainer, startedContainer } from '../container-steps.ts';
import { createAndInspect, roundTripChecks, type RoundTrip } from './create-round-trip.ts';

const SEEN = 'dockerd 20.10.24';
const MIB = 1024 * 1024;

const ROUND_TRIPS: RoundTrip[] = [
  {
    id: 'runtime-isolation-tmpfs-uts',
    since: '1.24',
    title: 'HostConfig.Runtime, Isolation, Tmpfs and UTSMode are accepted and shown back in inspect HostConfig',
    covers: [],
    hostConfig: { Runtime: 'runc', Isolation: 'default', Tmpfs: { '/run': 'rw,size=1m' }, UTSMode: 'host' },
  },
  {
    id: 'init-cpu-realtime',
    since: '1.25',
    title: 'HostConfig.Init, CpuRealtimeRuntime and CpuRealtimePeriod are accepted and shown back in inspect HostConfig',
    covers: [],
    hostConfig: { Init: true, CpuRealtimeRuntime: 950_000, CpuRealtimePeriod: 1_000_000 },
  },
  {
    id: 'stop-timeout',
    since: '1.25',
    title: 'Config.StopTimeout is accepted and shown back in inspect Config',
    covers: [],
    config: { StopTimeout: 7 },
  },
];

roundTripChecks(ROUND_TRIPS, { spec: '1 §2.3', tags: ['state'], level: 'docker', seen: SEEN });

// The spec's side of the same bodies: fields it does not list are unknown properties, and ignored.
for (const { id, since, config, hostConfig } of ROUND_TRIPS) {
  const names = [...Object.keys(config ?? {}), ...Object.keys(hostConfig ?? {}).map((name) => `HostConfig.${name}`)].join(', ');
  check(`containers.create.${id}-accepted`, {
    title: `a create holding ${names} (fields spec/1 §2.3 does not list) is accepted: unknown properties are ignored`,
    spec: '1 §1, §4.1',
    quote: ['Open schema: the daemon ignores unknown properties in incoming messages.', '| POST /containers/create |', '201 {Id, Warnings}'],
    since,
    tags: ['state'],
  }, async (context) => {
    const res = await createContainer(context, { Image: context.session.fixtureImage, Cmd: ['true'], ...config, ...(hostConfig && { HostConfig: hostConfig }) });
    context.expect(res.status, `POST /containers/create status: ${res.describe()}`).toBe(201);
  });
}

check('containers.create.memory-swap-default', {
  title: 'a create with HostConfig.Memory and no MemorySwap shows MemorySwap as twice the Memory in inspect',
  spec: '1 §2.3',
  // §2.3 says MemorySwap must be larger than Memory when given; what an absent one becomes is dockerd's.
  level: 'docker',
  seen: SEEN,
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const { HostConfig } = await createAndInspect(context, { HostConfig: { Memory: 64 * MIB } });
  context.expect({ Memory: HostConfig.Memory, MemorySwap: HostConfig.MemorySwap }, 'inspect HostConfig').toEqual({ Memory: 64 * MIB, MemorySwap: 128 * MIB });
});

check('containers.create.runtime-default', {
  title: 'a container created with a HostConfig that names no Runtime, and one created without any once started, show HostConfig.Runtime runc in inspect',
  spec: '1 §2.3',
  // §2.3 does not list Runtime; that dockerd names its default runtime there is dockerd's (clients read it).
  level: 'docker',
  seen: SEEN,
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const { HostConfig } = await createAndInspect(context, { HostConfig: {} });
  const started = await startedContainer(context, { Cmd: ['sleep', '300'] });
  const afterStart = (await inspectContainer<{ HostConfig: { Runtime?: string } }>(context, started)).HostConfig;
  context.expect({ created: HostConfig.Runtime, started: afterStart.Runtime }, 'inspect HostConfig.Runtime').toEqual({ created: 'runc', started: 'runc' });
});

check('containers.create.host-config-top-level', {
  title: 'a create without HostConfig takes host config fields (Memory, CpuShares, Runtime) from the body\'s top level, as inspect HostConfig shows',
  spec: '1 §2.3',
  // §2.3 puts these fields in HostConfig and §1 ignores unknown properties; dockerd's create wrapper also
  // embeds a HostConfig read at the top level (the Python SDK's create_container(runtime=…) sends Runtime
  // there, with HostConfig null). containers.create.host-config-top-level-accepted is the spec's side.
  level: 'docker',
  seen: SEEN,
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const { HostConfig } = await createAndInspect(context, { HostConfig: null, Memory: 32 * MIB, CpuShares: 512, Runtime: 'runc' });
  context.expect({ Memory: HostConfig.Memory, CpuShares: HostConfig.CpuShares, Runtime: HostConfig.Runtime }, 'inspect HostConfig').toEqual({ Memory: 32 * MIB, CpuShares: 512, Runtime: 'runc' });
});

check('containers.create.host-config-top-level-accepted', {
  title: 'a create holding Memory, CpuShares and Runtime at the top level of its body (and no HostConfig) is accepted (201): there they are unknown properties',
  spec: '1 §1, §4.1',
  quote: ['Open schema: the daemon ignores unknown properties in incoming messages.', '| POST /containers/create |', '201 {Id, Warnings}'],
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  // containers.create.host-config-top-level's fields; no HostConfig (§2.3 types it an object, so not null)
  const res = await createContainer(context, { Image: context.session.fixtureImage, Cmd: ['true'], Memory: 32 * MIB, CpuShares: 512, Runtime: 'runc' });
  context.expect(res.status, `POST /containers/create status: ${res.describe()}`).toBe(201);
});

check('containers.create.log-driver-unknown', {
  title: 'a create whose HostConfig.LogConfig.Type is none of the values §2.3 lists answers 400 (bad parameter)',
  spec: '1 §2.3, §7.2',
  quote: [
    '| LogConfig | object | {Type, Config}; Type values: json-file, syslog, journald, gelf, none, plus awslogs (from 1.21), fluentd, splunk, etwlogs (1.25) |',
    '400 bad parameter',
  ],
  since: '1.18',
  tags: ['error'],
}, async (context) => {
  const res = await createContainer(context, { Image: context.session.fixtureImage, Cmd: ['true'], HostConfig: { LogConfig: { Type: 'shipshape-no-such-driver', Config: {} } } });
  context.expect(res.status, `POST /containers/create status: ${res.describe()}`).toBe(400);
});

check('containers.stop.stop-timeout', {
  title: 'a stop without t of a container created with StopTimeout 1 kills its process (which ignores SIGTERM) after about a second, not 10',
  spec: '1 §4.1',
  level: 'docker',
  seen: SEEN,
  since: '1.25',
  tags: ['state'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: ['sleep', '300'], StopTimeout: 1 });
  const started = Date.now();
  const res = await context.engine.post(`/containers/${id}/stop`);
  const tookMs = Date.now() - started;
  context.expect(res.status, 'POST /containers/{id}/stop status').toBe(204);
  context.expect(tookMs < 6000, `the stop took ${tookMs} ms`).toBe(true);
  context.expect((await exitedState(context, id)).ExitCode, 'ExitCode (killed)').toBe(137);
});
