import { check, type CheckContext } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { INFO_BOOLEAN_FIELDS, infoSchema } from '../../harness/schemas/system-schemas.ts';
import { before } from '../../harness/versions.ts';

interface Info extends Record<string, unknown> {
  Containers: number;
  ContainersRunning: number;
  ContainersPaused: number;
  ContainersStopped: number;
  Images: number;
  NCPU: number;
  MemTotal: number;
}

check('system.info.schema', {
  title: 'GET /info answers 200 JSON with every field of the info object',
  spec: '2 §2.5',
  since: '1.18',
  tags: ['schema'],
  covers: ['2:GET /info', '2:GET /info:status:200'],
}, async ({ engine, expect, dialect }) => {
  const res = await engine.get('/info');
  expect(res.status, 'status').toBe(200);
  expect(res.contentType, 'Content-Type').toMatch(/^application\/json\b/);
  assertMatchesSchema(res.json(), infoSchema(dialect), 'the info object');
});

check('system.info.booleans', {
  title: 'info flags are JSON booleans from 1.19, and not yet JSON booleans before (the spec does not say what they are then)',
  spec: '2 §2.5',
  since: '1.18',
  tags: ['version'],
  covers: ['2:GET /info', '1:version-rule:1.19:info-booleans', '2:version-rule:1.19:info-booleans'],
}, async ({ engine, expect, version }) => {
  const info = (await engine.get('/info')).json<Info>();
  // "Booleans are real booleans from 1.19" (§2.5, and §9.4): before, only that they are not.
  const booleans = !before(version, '1.19');
  const present = INFO_BOOLEAN_FIELDS.filter((field) => field in info);
  expect(present.length, 'flags present').toBeGreaterThan(0);
  const areBooleans = Object.fromEntries(present.map((field) => [field, typeof info[field] === 'boolean']));
  expect(areBooleans, `whether each info flag is a JSON boolean at ${version} (values ${JSON.stringify(Object.fromEntries(present.map((field) => [field, info[field]])))})`)
    .toEqual(Object.fromEntries(present.map((field) => [field, booleans])));
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
  title: 'info counts are consistent: no more containers by state (Running, Paused, Stopped) than Containers, which counts the own one; the fixture image counted; host resources positive',
  spec: '2 §2.5',
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
