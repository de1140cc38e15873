/**
 * What GET /containers/json lists (spec/1 §4.1, §3): running containers unless `all`; the last
 * `limit` created; those created since or before a container; and each `filters` entry, one container
 * it must list and one it must not. Other checks create containers at the same time, so each check
 * judges only its own containers: by their ids, or by a label of its own where the rule is about
 * the whole list (limit, since, before).
 */
import { check, type CheckContext } from '../../harness/check.ts';
import type { Query } from '../../harness/client/engine-client.ts';
import { until } from '../../harness/wait-until.ts';
import { before } from '../../harness/versions.ts';
import { exitedContainer, inspectContainer, pauseContainer, startedContainer } from '../container-steps.ts';

/** A check's own containers by the role each plays in it, e.g. `{ running: id, exited: id }`. */
type Cast = Record<string, string>;

/** PID 1 ignores SIGTERM: it runs until killed. */
const RUNS = ['sleep', '300'];

/** The roles of the cast that GET /containers/json with `query` lists, in the order listed. */
async function listedRoles({ engine, expect }: CheckContext, query: Query, cast: Cast): Promise<string[]> {
  const res = await engine.get('/containers/json', { query });
  expect(res.status, `GET /containers/json status`).toBe(200);
  const roleOf = new Map(Object.entries(cast).map(([role, id]) => [id, role]));
  return res.json<{ Id: string }[]>().flatMap((item) => roleOf.get(item.Id) ?? []);
}

/** The roles listed with `all=1` and these filters (list form). */
function filteredRoles(context: CheckContext, filters: Record<string, unknown>, cast: Cast): Promise<string[]> {
  return listedRoles(context, { all: '1', filters: JSON.stringify(filters) }, cast);
}

/** Containers of the fixture image that were created and never started, one per role, in this order. */
async function createdInOrder(context: CheckContext, roles: string[], config: Record<string, unknown> = {}): Promise<Cast> {
  const cast: Cast = {};
  for (const role of roles) cast[role] = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'], ...config });
  return cast;
}

/** A label only this check's containers carry: lists filtered by it show nobody else's. */
function ownLabel({ make }: CheckContext): { labels: Record<string, string>; filter: string } {
  const value = make.uniqueName('case');
  return { labels: { 'shipshape.case': value }, filter: `shipshape.case=${value}` };
}

check('containers.list.all', {
  title: 'GET /containers/json lists running containers only; with all=1 created and exited ones too',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['state'],
  covers: ['1:GET /containers/json', '1:GET /containers/json:query:all', '1:GET /containers/json:status:200'],
}, async (context) => {
  const cast: Cast = {
    running: await startedContainer(context, { Cmd: RUNS }),
    created: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] }),
    exited: await exitedContainer(context, { Cmd: ['true'] }),
  };
  const seen = {
    default: (await listedRoles(context, {}, cast)).sort(),
    all: (await listedRoles(context, { all: '1' }, cast)).sort(),
  };
  context.expect(seen, `own containers listed without and with all=1: ${JSON.stringify(seen)}`).toEqual({
    default: ['running'],
    all: ['created', 'exited', 'running'],
  });
});

check('containers.list.limit', {
  title: 'GET /containers/json?limit=N lists the N last created, newest first, non-running ones included',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['state'],
  covers: ['1:GET /containers/json:query:limit'],
}, async (context) => {
  const own = ownLabel(context);
  const cast = await createdInOrder(context, ['first', 'second', 'third'], { Labels: own.labels });
  const listed = await listedRoles(context, { limit: '2', filters: JSON.stringify({ label: [own.filter] }) }, cast);
  context.expect(listed, 'own containers listed with limit=2 (none of them ever started)').toEqual(['third', 'second']);
});

check('containers.list.since', {
  title: 'GET /containers/json?since=ID lists the containers created after ID, non-running ones included',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['state'],
  covers: ['1:GET /containers/json:query:since'],
}, async (context) => {
  const own = ownLabel(context);
  const cast = await createdInOrder(context, ['first', 'second', 'third'], { Labels: own.labels });
  const listed = await listedRoles(context, { since: cast.first, filters: JSON.stringify({ label: [own.filter] }) }, cast);
  context.expect(listed, 'own containers listed with since=<first> (none of them ever started)').toEqual(['third', 'second']);
});

check('containers.list.before', {
  title: 'GET /containers/json?before=ID lists the containers created before ID, non-running ones included',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['state'],
  covers: ['1:GET /containers/json:query:before'],
}, async (context) => {
  const own = ownLabel(context);
  const cast = await createdInOrder(context, ['first', 'second', 'third'], { Labels: own.labels });
  const listed = await listedRoles(context, { before: cast.third, filters: JSON.stringify({ label: [own.filter] }) }, cast);
  context.expect(listed, 'own containers listed with before=<third> (none of them ever started)').toEqual(['second', 'first']);
});

check('containers.list.filter-id', {
  title: 'the id filter lists the container whose id it gives (a 12-digit prefix) and not another',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['state'],
  covers: ['1:GET /containers/json:query:filters'],
}, async (context) => {
  const cast = await createdInOrder(context, ['wanted', 'other']);
  const listed = await filteredRoles(context, { id: [(cast.wanted ?? '').slice(0, 12)] }, cast);
  context.expect(listed, 'own containers listed with the id filter of one').toEqual(['wanted']);
});

check('containers.list.filter-name', {
  title: 'the name filter lists the container whose name it gives and not another',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['state'],
  covers: ['1:GET /containers/json:query:filters'],
}, async (context) => {
  const name = context.make.uniqueName('named');
  const cast: Cast = {
    wanted: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] }, name),
    other: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] }),
  };
  const listed = await filteredRoles(context, { name: [name] }, cast);
  context.expect(listed, `own containers listed with name=${name}`).toEqual(['wanted']);
});

check('containers.list.filter-label', {
  title: 'the label filter lists by key (label=key) and by key and value (label=key=value)',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['state'],
  covers: ['1:GET /containers/json:query:filters'],
}, async (context) => {
  const key = context.make.uniqueName('key');
  const cast: Cast = {
    one: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'], Labels: { [key]: 'one' } }),
    two: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'], Labels: { [key]: 'two' } }),
    unlabelled: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] }),
  };
  const seen = {
    key: (await filteredRoles(context, { label: [key] }, cast)).sort(),
    keyAndValue: await filteredRoles(context, { label: [`${key}=one`] }, cast),
  };
  context.expect(seen, `own containers listed per label filter: ${JSON.stringify(seen)}`).toEqual({ key: ['one', 'two'], keyAndValue: ['one'] });
});

check('containers.list.filter-status', {
  title: 'the status filter lists the containers in that state only: created (from 1.20), running, paused, exited',
  spec: '1 §3',
  since: '1.18',
  tags: ['state', 'version'],
  covers: ['1:GET /containers/json:query:filters'],
}, async (context) => {
  const cast: Cast = {
    created: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] }),
    running: await startedContainer(context, { Cmd: RUNS }),
    paused: await startedContainer(context, { Cmd: RUNS }),
    exited: await exitedContainer(context, { Cmd: ['true'] }),
  };
  await pauseContainer(context, cast.paused ?? '');
  // `created` is a status value from 1.20 on.
  const statuses = before(context.version, '1.20') ? ['running', 'paused', 'exited'] : ['created', 'running', 'paused', 'exited'];
  const seen: Record<string, string[]> = {};
  for (const status of statuses) seen[status] = await filteredRoles(context, { status: [status] }, cast);
  context.expect(seen, `own containers listed per status filter: ${JSON.stringify(seen)}`).toEqual(Object.fromEntries(statuses.map((status) => [status, [status]])));
});

check('containers.list.filter-status-restarting', {
  title: 'the status filter restarting lists a container its restart policy is about to start again, and not a running one',
  spec: '1 §3',
  since: '1.18',
  tags: ['state'],
  covers: ['1:GET /containers/json:query:filters'],
}, async (context) => {
  const cast: Cast = {
    restarting: await startedContainer(context, { Cmd: ['false'], HostConfig: { RestartPolicy: { Name: 'always', MaximumRetryCount: 0 } } }),
    running: await startedContainer(context, { Cmd: RUNS }),
  };
  const listed = await until(
    () => filteredRoles(context, { status: ['restarting'] }, cast),
    (roles) => roles.includes('restarting'),
    { what: 'status=restarting to list the container that keeps exiting', intervalMs: 20 },
  );
  context.expect(listed, 'own containers listed with status=restarting').toEqual(['restarting']);
});

check('containers.list.filter-exited', {
  title: 'the exited filter lists the stopped containers that exited with that code and not others',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['state'],
  covers: ['1:GET /containers/json:query:filters'],
}, async (context) => {
  const cast: Cast = {
    three: await exitedContainer(context, { Cmd: ['sh', '-c', 'exit 3'] }),
    zero: await exitedContainer(context, { Cmd: ['true'] }),
  };
  const listed = await filteredRoles(context, { exited: ['3'] }, cast);
  context.expect(listed, 'own containers listed with exited=3').toEqual(['three']);
});

check('containers.list.filter-ancestor', {
  title: 'the ancestor filter lists the containers of an image given by name or id, and none for an image that does not exist',
  spec: '1 §9',
  since: '1.24',
  tags: ['state'],
  covers: ['1:GET /containers/json:query:filters', '1:version-rule:1.24:list-filters-ancestor-before-since-volume-network'],
}, async (context) => {
  const cast = await createdInOrder(context, ['fixture']);
  const { Image: imageId } = await inspectContainer<{ Image: string }>(context, cast.fixture ?? '');
  const seen = {
    name: await filteredRoles(context, { ancestor: [context.session.fixtureImage] }, cast),
    id: await filteredRoles(context, { ancestor: [imageId] }, cast),
    unknown: await filteredRoles(context, { ancestor: [`${context.make.uniqueName('no-such-image')}:latest`] }, cast),
  };
  context.expect(seen, `own containers listed per ancestor: ${JSON.stringify(seen)}`).toEqual({ name: ['fixture'], id: ['fixture'], unknown: [] });
});

check('containers.list.filter-before', {
  title: 'the before filter lists the containers created before the one it names, not those after',
  spec: '1 §9',
  since: '1.24',
  tags: ['state'],
  covers: ['1:GET /containers/json:query:filters', '1:version-rule:1.24:list-filters-ancestor-before-since-volume-network'],
}, async (context) => {
  const cast = await createdInOrder(context, ['first', 'second', 'third']);
  const listed = await filteredRoles(context, { before: [cast.second] }, cast);
  context.expect(listed, 'own containers listed with before=<second>').toEqual(['first']);
});

check('containers.list.filter-since', {
  title: 'the since filter lists the containers created after the one it names, not those before',
  spec: '1 §9',
  since: '1.24',
  tags: ['state'],
  covers: ['1:GET /containers/json:query:filters', '1:version-rule:1.24:list-filters-ancestor-before-since-volume-network'],
}, async (context) => {
  const cast = await createdInOrder(context, ['first', 'second', 'third']);
  const listed = await filteredRoles(context, { since: [cast.second] }, cast);
  context.expect(listed, 'own containers listed with since=<second>').toEqual(['third']);
});

check('containers.list.filter-volume', {
  title: 'the volume filter lists the containers mounting a volume at the destination it gives, not others',
  spec: '1 §9',
  since: '1.24',
  tags: ['state'],
  covers: ['1:GET /containers/json:query:filters', '1:version-rule:1.24:list-filters-ancestor-before-since-volume-network'],
}, async (context) => {
  const cast: Cast = {
    data: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'], Volumes: { '/data': {} } }),
    none: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] }),
  };
  const listed = await filteredRoles(context, { volume: ['/data'] }, cast);
  context.expect(listed, 'own containers listed with volume=/data').toEqual(['data']);
});

check('containers.list.filter-network', {
  title: 'the network filter lists the containers on the network it names: bridge (the default) or none',
  spec: '1 §9',
  since: '1.24',
  tags: ['state'],
  covers: ['1:GET /containers/json:query:filters', '1:version-rule:1.24:list-filters-ancestor-before-since-volume-network'],
}, async (context) => {
  const cast: Cast = {
    bridge: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] }),
    none: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'], HostConfig: { NetworkMode: 'none' } }),
  };
  const seen = {
    bridge: await filteredRoles(context, { network: ['bridge'] }, cast),
    none: await filteredRoles(context, { network: ['none'] }, cast),
  };
  context.expect(seen, `own containers listed per network: ${JSON.stringify(seen)}`).toEqual({ bridge: ['bridge'], none: ['none'] });
});

check('containers.list.filters-map-form', {
  title: 'filters also take the form clients send from 1.22, {"label": {"key=value": true}}',
  spec: '1 §4.1',
  since: '1.22',
  tags: ['state'],
  covers: ['1:GET /containers/json:query:filters'],
}, async (context) => {
  const key = context.make.uniqueName('key');
  const cast: Cast = {
    wanted: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'], Labels: { [key]: 'wanted' } }),
    other: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'], Labels: { [key]: 'other' } }),
  };
  const listed = await filteredRoles(context, { label: { [`${key}=wanted`]: true } }, cast);
  context.expect(listed, `own containers listed with filters {"label": {"${key}=wanted": true}}`).toEqual(['wanted']);
});

check('containers.list.filters-malformed', {
  title: 'a filters parameter that is not JSON answers 400',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['error'],
  covers: ['1:GET /containers/json:query:filters', '1:GET /containers/json:status:400'],
}, async ({ engine, expect }) => {
  const res = await engine.get('/containers/json', { query: { all: '1', filters: '{"label":' } });
  expect(res.status, 'status').toBe(400);
});
