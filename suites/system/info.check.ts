/**
 * GET /info (spec/2 §2.5, §4.2): every field of the info object, typed where the spec types it (the
 * other types, and the Content-Type, are dockerd's: a docker-level check); the flags JSON booleans
 * from 1.19; and, at docker level, what the counts count.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import type { Dialect } from '../../protocol/dialect.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { nullableStringList, timestamp } from '../../harness/schemas/schema-parts.ts';
import { infoSchema } from '../../harness/schemas/system-schemas.ts';

interface Info extends Record<string, unknown> {
  Containers: number;
  ContainersRunning: number;
  ContainersPaused: number;
  ContainersStopped: number;
  Images: number;
  NCPU: number;
  MemTotal: number;
}

const INFO_FIELDS = [
  'Architecture', 'ClusterStore', 'CgroupDriver', 'Containers', 'ContainersRunning', 'ContainersStopped', 'ContainersPaused',
  'CpuCfsPeriod', 'CpuCfsQuota', 'Debug', 'Driver', 'DriverStatus', 'ExperimentalBuild', 'HttpProxy', 'HttpsProxy', 'ID',
  'IPv4Forwarding', 'Images', 'IndexServerAddress', 'InitPath', 'InitSha1', 'KernelMemory', 'KernelVersion', 'Labels',
  'MemTotal', 'MemoryLimit', 'NCPU', 'NEventsListener', 'NFd', 'NGoroutines', 'Name', 'NoProxy', 'OomKillDisable', 'OSType',
  'OperatingSystem', 'Plugins', 'RegistryConfig', 'SecurityOptions', 'ServerVersion', 'SwapLimit', 'SystemStatus', 'SystemTime',
] as const;

/**
 * The info object as spec/2 §2.5 gives it: every field (EngineRootDir under the dialect's name), typed
 * only where §2.5 gives a type (arrays may be null, as a Go daemon writes an empty one).
 */
function specInfoSchema(dialect: Dialect) {
  const array = { type: ['array', 'null'] } as const;
  return {
    type: 'object',
    required: [...INFO_FIELDS, dialect.rootDirInfoField],
    properties: {
      CgroupDriver: { enum: ['cgroupfs', 'systemd'] },
      Labels: nullableStringList,
      Plugins: { type: 'object', required: ['Volume', 'Network'], properties: { Volume: array, Network: array } },
      RegistryConfig: {
        type: 'object',
        required: ['IndexConfigs', 'InsecureRegistryCIDRs'],
        properties: {
          IndexConfigs: { type: 'object', additionalProperties: { type: 'object', required: ['Mirrors', 'Name', 'Official', 'Secure'] } },
          InsecureRegistryCIDRs: array,
        },
      },
      SecurityOptions: array,
      SystemStatus: { type: ['array', 'null'], items: { type: 'array', items: { type: 'string' } } },
      SystemTime: timestamp,
    },
  };
}

const INFO_QUOTES = [
  'Fields: Architecture, ClusterStore, CgroupDriver (cgroupfs or systemd), Containers, ContainersRunning, ContainersStopped, ContainersPaused, CpuCfsPeriod, CpuCfsQuota, Debug, EngineRootDir, Driver, DriverStatus, ExperimentalBuild',
  'HttpProxy, HttpsProxy, ID, IPv4Forwarding, Images, IndexServerAddress, InitPath, InitSha1, KernelMemory, KernelVersion, Labels (array of string), MemTotal, MemoryLimit, NCPU, NEventsListener, NFd, NGoroutines, Name, NoProxy, OomKillDisable, OSType, OperatingSystem, Plugins {Volume (array), Network (array)}, RegistryConfig {IndexConfigs (map name to {Mirrors, Name, Official, Secure}), InsecureRegistryCIDRs (array)}, SecurityOptions (array: apparmor, seccomp, selinux), ServerVersion, SwapLimit, SystemStatus (array of arrays of string), SystemTime (timestamp).',
];

check('system.info.schema', {
  title: 'GET /info answers 200 with every field of the info object, typed where the spec types it',
  spec: '2 §2.5, §4.2',
  quote: [...INFO_QUOTES, '| GET /info | | none | 200 info object | 200, 500 |'],
  since: '1.18',
  tags: ['schema'],
  covers: ['2:GET /info', '2:GET /info:status:200'],
}, async ({ engine, expect, dialect }) => {
  const res = await engine.get('/info');
  expect(res.status, 'status').toBe(200);
  assertMatchesSchema(res.json(), specInfoSchema(dialect), 'the info object');
});

check('system.info.schema-types', {
  title: 'GET /info answers application/json, its fields typed as dockerd types them: strings, integers, 0/1 or boolean flags (as dockerd)',
  spec: '2 §2.5',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['schema'],
}, async ({ engine, expect, dialect }) => {
  const res = await engine.get('/info');
  expect(res.status, 'status').toBe(200);
  expect(res.contentType, 'Content-Type').toMatch(/^application\/json\b/);
  // the types of the fields it has: which ones dockerd has is system.info.schema's business
  assertMatchesSchema(res.json(), { ...infoSchema(dialect), required: [] }, 'the info object');
});

/** The info fields that are yes/no flags by their names alone (OomKillDisable is a boolean in spec/1 §2.3 HostConfig). */
const SPEC_INFO_FLAGS = ['Debug', 'ExperimentalBuild', 'IPv4Forwarding', 'OomKillDisable'] as const;

check('system.info.booleans', {
  title: 'from 1.19 the info flags are JSON booleans',
  spec: '2 §2.5',
  quote: ['Booleans are real booleans from 1.19.'],
  // Before 1.19 the spec says nothing of what they are. Which fields are the booleans §2.5 does not
  // list: only the plain yes/no flags among its fields are taken. CpuCfsPeriod, CpuCfsQuota,
  // KernelMemory, MemoryLimit and SwapLimit are also names of quantities (spec/1 §2.3 HostConfig
  // CpuPeriod, CpuQuota, KernelMemory in microseconds and bytes): a daemon may read them as numbers.
  since: '1.19',
  tags: ['version'],
  covers: ['2:GET /info', '1:version-rule:1.19:info-booleans', '2:version-rule:1.19:info-booleans'],
}, async ({ engine, expect, version }) => {
  const info = (await engine.get('/info')).json<Info>();
  const present = SPEC_INFO_FLAGS.filter((field) => field in info);
  expect(present.length, 'flags present').toBeGreaterThan(0);
  const areBooleans = Object.fromEntries(present.map((field) => [field, typeof info[field] === 'boolean']));
  expect(areBooleans, `whether each info flag is a JSON boolean at ${version} (values ${JSON.stringify(Object.fromEntries(present.map((field) => [field, info[field]])))})`)
    .toEqual(Object.fromEntries(present.map((field) => [field, true])));
});

/** How many answers of GET /info the counts checks read at most (Podman takes seconds for each under load). */
const INFO_ANSWERS = 3;

/** With a created (never started) container of the check's own on the target, up to INFO_ANSWERS answers of GET /info, until `enough` says so. */
async function infoAnswers({ engine, expect, make, session }: CheckContext, enough: (answers: Info[]) => boolean): Promise<Info[]> {
  await make.container({ Image: session.fixtureImage, Cmd: ['true'] });
  const answers: Info[] = [];
  while (answers.length < INFO_ANSWERS && !enough(answers)) {
    const res = await engine.get('/info');
    expect(res.status, 'GET /info status').toBe(200);
    answers.push(res.json<Info>());
  }
  return answers;
}

function byState({ ContainersRunning: running, ContainersPaused: paused, ContainersStopped: stopped, Containers: all }: Info): string {
  return `Running ${running} + Paused ${paused} + Stopped ${stopped} against Containers ${all}`;
}

const statesWithin = (info: Info): boolean => info.ContainersRunning + info.ContainersPaused + info.ContainersStopped <= info.Containers;

check('system.info.counts', {
  title: 'info counts are consistent: no more containers by state (Running, Paused, Stopped) than Containers, which counts the own one; the fixture image counted; host resources positive (as dockerd)',
  // spec/2 §2.5 lists these fields by name only: what they count is dockerd's.
  spec: '2 §2.5',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  timeoutMs: 55_000,
  tags: ['state'],
  covers: ['2:GET /info'],
}, async (context) => {
  // Running, paused and stopped are states no container is in two of at once; whether a created
  // container counts as stopped the spec does not say (system.info.counts-include-created). The spec
  // does not ask for the counts of one answer to come from one moment: Podman counts the states on a
  // second listing, so another check's container made in between can tip one answer over. One
  // answer of a few that holds is enough; a daemon that miscounts fails every one.
  const answers = await infoAnswers(context, (so) => so.some(statesWithin));
  const { expect } = context;
  const info = answers.find(statesWithin) ?? answers[0];
  expect(info !== undefined && statesWithin(info), `an answer whose states do not outnumber Containers, among ${answers.map(byState).join('; ')}`).toBe(true);
  if (info === undefined) return;
  expect(info.Containers, 'Containers (the own created one at least)').toBeGreaterThanOrEqual(1);
  expect(info.Images, 'Images (the fixture image at least)').toBeGreaterThanOrEqual(1);
  expect(info.NCPU, 'NCPU').toBeGreaterThanOrEqual(1);
  expect(info.MemTotal, 'MemTotal').toBeGreaterThan(0);
});

check('system.info.counts-include-created', {
  title: 'a created (not started) container counts as stopped, as dockerd counts it: with one of the own, Running + Paused + Stopped add up to Containers, and Stopped is at least 1, in every answer',
  spec: '2 §2.5',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  timeoutMs: 55_000,
  tags: ['state'],
  covers: ['2:GET /info'],
}, async (context) => {
  // dockerd derives Containers from its state counters, so every answer adds up whatever other checks
  // do meanwhile. A daemon that leaves created containers out of every state (Podman) fails whenever
  // the own one exists; one whose counts come from two listings can add up by chance in one answer
  // while other checks' containers come and go, hardly in several.
  const counted = (info: Info) => ({ addsUp: info.ContainersRunning + info.ContainersPaused + info.ContainersStopped === info.Containers, stoppedAtLeastOne: info.ContainersStopped >= 1 });
  // Reading stops at the first answer that does not add up: that one is the verdict.
  const answers = await infoAnswers(context, (so) => so.some((info) => !counted(info).addsUp || !counted(info).stoppedAtLeastOne));
  const seen = answers.map(counted);
  context.expect(seen, `the counts of ${answers.length} answers: ${answers.map(byState).join('; ')}`).toEqual(answers.map(() => ({ addsUp: true, stoppedAtLeastOne: true })));
});
