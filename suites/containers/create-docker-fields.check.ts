/**
 * Creation fields of Docker's API that the spec does not list (spec/1 §2.3 names neither these
 * HostConfig fields nor Config.StopTimeout), and what dockerd makes of some: a create keeps each and
 * inspect shows it back; a memory limit alone gets twice as much memory and swap; an unknown log
 * driver is refused; StopTimeout is the wait of a stop that gives none.
 */
import { check } from '../../harness/check.ts';
import { createContainer, exitedState, startedContainer } from '../container-steps.ts';
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

check('containers.create.log-driver-unknown', {
  title: 'a create whose HostConfig.LogConfig.Type names no log driver answers 400',
  spec: '1 §2.3',
  // §2.3 lists the Type values; that another is refused, and with 400, is dockerd's.
  level: 'docker',
  seen: SEEN,
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
