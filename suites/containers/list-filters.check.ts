/**
 * What GET /containers/json lists (spec/1 §4.1, §3): running containers unless `all`; the last
 * `limit` created; those created since or before a container; and each `filters` entry, one container
 * it must list and one it must not. Other checks create containers at the same time, so each check
 * judges only its own containers: by their ids, or, for limit (a rule about the whole list), by a
 * label of its own. The filters the spec names are, from 1.24, ancestor, before, since, volume and
 * network (§9.4); §3 says the states are visible through "the list filter" without naming its key, so
 * `status`, like id, name, label and exited, is docker's (docker-level checks). Limit, a rule about the
 * whole list, takes no filter: it looks again while other checks' containers come in between.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import type { Query } from '../../harness/client/engine-client.ts';
import { until } from '../../harness/wait-until.ts';
import { atLeast, before } from '../../protocol/versions.ts';
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

/** The State of each role's item in GET /containers/json?all=1 (a [1.23+] field). */
async function listedStates({ engine, expect }: CheckContext, cast: Cast): Promise<Record<string, string | undefined>> {
  const res = await engine.get('/containers/json', { query: { all: '1' } });
  expect(res.status, 'GET /containers/json?all=1 status').toBe(200);
  const stateOf = new Map(res.json<{ Id: string; State?: string }[]>().map((item) => [item.Id, item.State]));
  return Object.fromEntries(Object.entries(cast).map(([role, id]) => [role, stateOf.get(id)]));
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

check('containers.list.all', {
  title: 'GET /containers/json lists running containers only; with all=1 created and exited ones too, each with the State it is in (from 1.23)',
  spec: '1 §4.1, §2.1, §3',
  quote: ['| GET /containers/json | all (boolean, default false: only running are listed), limit (integer, last created, includes non-running), since (container id), before (container id), size (boolean), filters (JSON map string to array of string) | none | 200 JSON array of container summary | 200, 400, 500 |', '| State | string | [1.23+] one of created, restarting, running, paused, exited, dead |', 'Container states visible through the API: created, restarting, running, paused, exited, dead (list filter and State field).', '| POST /containers/{id_or_name}/start |', '204 no body | 204, 304, 404, 500 |'],
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
  if (atLeast(context.version, '1.23')) {
    // Each role is named after the state its container is in.
    const states = await listedStates(context, cast);
    context.expect(states, `State of the own list items: ${JSON.stringify(states)}`).toEqual({ created: 'created', exited: 'exited', running: 'running' });
  }
});

check('containers.list.limit', {
  title: 'GET /containers/json?limit=N lists the N last created, non-running ones included',
  spec: '1 §4.1',
  quote: ['| GET /containers/json | all (boolean, default false: only running are listed), limit (integer, last created, includes non-running), since (container id), before (container id), size (boolean), filters (JSON map string to array of string) | none | 200 JSON array of container summary | 200, 400, 500 |'],
  since: '1.18',
  tags: ['state'],
  covers: ['1:GET /containers/json:query:limit'],
}, async (context) => {
  // No filter (the spec defines none that selects a check's own containers): containers other checks
  // create meanwhile rightly take places in the list. What must never be listed is a container created
  // before `second` (ours or one there before the check began): two of ours came after it.
  const listedBefore = await context.engine.get('/containers/json', { query: { all: '1' } });
  context.expect(listedBefore.status, `GET /containers/json?all=1 status: ${listedBefore.describe()}`).toBe(200);
  const older = new Set(listedBefore.json<{ Id: string }[]>().map((item) => item.Id));
  const cast = await createdInOrder(context, ['first', 'second', 'third']);
  // Podman 4.3 counts a container another check removes while it lists, then leaves it out: a list
  // shorter than the limit is asked for again (a few times), a longer one never.
  const res = await until(
    () => context.engine.get('/containers/json', { query: { limit: '2' } }),
    (answer) => answer.status !== 200 || answer.json<unknown[]>().length >= 2,
    { what: 'limit=2 to list two containers', timeoutMs: 5_000, intervalMs: 250 },
  ).catch(() => context.engine.get('/containers/json', { query: { limit: '2' } }));
  context.expect(res.status, 'GET /containers/json?limit=2 status').toBe(200);
  const roleOf = new Map(Object.entries(cast).map(([role, id]) => [id, role]));
  // In which order the spec does not say.
  const listed = res.json<{ Id: string }[]>().map((item) => roleOf.get(item.Id) ?? (older.has(item.Id) ? 'older than the check' : 'created meanwhile')).sort();
  const wrong = listed.filter((role) => role === 'first' || role === 'older than the check');
  context.expect({ length: listed.length, createdBeforeSecond: wrong }, `listed with limit=2 (none of ours ever started): ${JSON.stringify(listed)}`).toEqual({ length: 2, createdBeforeSecond: [] });
});

/**
 * The since and before parameters (spec/1 §4.1), and from 1.24 the filters of those names (§9.4): of
 * three containers created one after the other, those created after, or before, the second. Whether
 * the container named is itself listed neither the row nor §9.4 says. The parameters are asked with
 * all=1: whether since takes in non-running containers by itself the spec says for limit only.
 */
for (const { id, query, accepted, what, ...meta } of [
  { id: 'containers.list.since', title: 'GET /containers/json?all=1&since=ID lists the containers created after ID and not those before it (ID itself either way)', query: (second) => ({ all: '1', since: second }), accepted: [['third'], ['second', 'third']], what: 'own containers listed with all=1&since=<second>',
    spec: '1 §4.1', quote: ['| GET /containers/json | all (boolean, default false: only running are listed), limit (integer, last created, includes non-running), since (container id), before (container id), size (boolean), filters (JSON map string to array of string) | none | 200 JSON array of container summary | 200, 400, 500 |'], since: '1.18', covers: ['1:GET /containers/json:query:since'] },
  { id: 'containers.list.before', title: 'GET /containers/json?all=1&before=ID lists the containers created before ID and not those after it (ID itself either way)', query: (second) => ({ all: '1', before: second }), accepted: [['first'], ['first', 'second']], what: 'own containers listed with all=1&before=<second>',
    spec: '1 §4.1', quote: ['| GET /containers/json | all (boolean, default false: only running are listed), limit (integer, last created, includes non-running), since (container id), before (container id), size (boolean), filters (JSON map string to array of string) | none | 200 JSON array of container summary | 200, 400, 500 |'], since: '1.18', covers: ['1:GET /containers/json:query:before'] },
  { id: 'containers.list.filter-before', title: 'the before filter lists the containers created before the one it names, not those after (the named one either way)', query: (second) => ({ all: '1', filters: JSON.stringify({ before: [second] }) }), accepted: [['first'], ['first', 'second']], what: 'own containers listed with before=<second>',
    spec: '1 §9, §4.1', quote: ['1.24 StorageOpt, sysctls, JSON errors, hostname validation, PidMode container form, start no longer accepts HostConfig, copy removed, ancestor, before, since, volume and network container filters', '| GET /containers/json | all (boolean, default false: only running are listed), limit (integer, last created, includes non-running), since (container id), before (container id), size (boolean), filters (JSON map string to array of string) | none | 200 JSON array of container summary | 200, 400, 500 |'], since: '1.24', covers: ['1:GET /containers/json:query:filters', '1:version-rule:1.24:list-filters-ancestor-before-since-volume-network'] },
  { id: 'containers.list.filter-since', title: 'the since filter lists the containers created after the one it names, not those before (the named one either way)', query: (second) => ({ all: '1', filters: JSON.stringify({ since: [second] }) }), accepted: [['third'], ['second', 'third']], what: 'own containers listed with since=<second>',
    spec: '1 §9, §4.1', quote: ['1.24 StorageOpt, sysctls, JSON errors, hostname validation, PidMode container form, start no longer accepts HostConfig, copy removed, ancestor, before, since, volume and network container filters', '| GET /containers/json | all (boolean, default false: only running are listed), limit (integer, last created, includes non-running), since (container id), before (container id), size (boolean), filters (JSON map string to array of string) | none | 200 JSON array of container summary | 200, 400, 500 |'], since: '1.24', covers: ['1:GET /containers/json:query:filters', '1:version-rule:1.24:list-filters-ancestor-before-since-volume-network'] },
] satisfies (Omit<Parameters<typeof check>[1], 'tags'> & { id: string; query: (second: string) => Query; accepted: string[][]; what: string })[]) {
  check(id, { ...meta, tags: ['state'] }, async (context) => {
    const cast = await createdInOrder(context, ['first', 'second', 'third']);
    const listed = (await listedRoles(context, query(cast.second ?? ''), cast)).sort();
    context.expect(accepted, what).toContainEqual(listed);
  });
}

/**
 * Filters the spec does not name, or forms of their values it does not give, as dockerd 20.10 takes
 * them: each lists the one container of the check's own it picks (`wanted`), and not the other.
 */
for (const { id, arrange, wanted, ...meta } of [
  { id: 'containers.list.filter-id', title: 'the id filter (not named by the spec) lists the container whose id it gives (a 12-digit prefix) and not another', spec: '1 §4.1', since: '1.18', wanted: 'wanted',
    arrange: async (context) => {
      const cast = await createdInOrder(context, ['wanted', 'other']);
      return { cast, filters: { id: [(cast.wanted ?? '').slice(0, 12)] }, what: 'own containers listed with the id filter of one' };
    } },
  { id: 'containers.list.filter-name', title: 'the name filter (not named by the spec) lists the container whose name it gives and not another', spec: '1 §4.1', since: '1.18', wanted: 'wanted',
    arrange: async (context) => {
      const name = context.make.uniqueName('named');
      const cast: Cast = {
        wanted: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] }, name),
        other: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] }),
      };
      return { cast, filters: { name: [name] }, what: `own containers listed with name=${name}` };
    } },
  { id: 'containers.list.filter-exited', title: 'the exited filter (not named by the spec) lists the stopped containers that exited with that code and not others', spec: '1 §4.1', since: '1.18', wanted: 'three',
    arrange: async (context) => {
      const cast: Cast = {
        three: await exitedContainer(context, { Cmd: ['sh', '-c', 'exit 3'] }),
        zero: await exitedContainer(context, { Cmd: ['true'] }),
      };
      return { cast, filters: { exited: ['3'] }, what: 'own containers listed with exited=3' };
    } },
  { id: 'containers.list.filter-ancestor-id', title: 'the ancestor filter also takes the image id (inspect Image) and lists the containers of that image', spec: '1 §9', since: '1.24', wanted: 'fixture',
    arrange: async (context) => {
      const cast = await createdInOrder(context, ['fixture']);
      const { Image: imageId } = await inspectContainer<{ Image: string }>(context, cast.fixture ?? '');
      return { cast, filters: { ancestor: [imageId] }, what: `own containers listed with ancestor=${imageId}` };
    } },
  { id: 'containers.list.filter-volume-destination', title: 'the volume filter also takes a mount destination: it lists the containers with a volume mounted there, not others', spec: '1 §9', since: '1.24', wanted: 'data',
    arrange: async (context) => {
      const cast: Cast = {
        data: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'], Volumes: { '/data': {} } }),
        none: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] }),
      };
      return { cast, filters: { volume: ['/data'] }, what: 'own containers listed with volume=/data' };
    } },
  { id: 'containers.list.filters-map-form', title: 'filters also take the form docker clients send from 1.22, {"label": {"key=value": true}} (the spec gives arrays of strings only)', spec: '1 §4.1', since: '1.22', wanted: 'wanted',
    arrange: async (context) => {
      const key = context.make.uniqueName('key');
      const cast: Cast = {
        wanted: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'], Labels: { [key]: 'wanted' } }),
        other: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'], Labels: { [key]: 'other' } }),
      };
      return { cast, filters: { label: { [`${key}=wanted`]: true } }, what: `own containers listed with filters {"label": {"${key}=wanted": true}}` };
    } },
] satisfies (Omit<Parameters<typeof check>[1], 'tags'> & { id: string; wanted: string; arrange: (context: CheckContext) => Promise<{ cast: Cast; filters: Record<string, unknown>; what: string }> })[]) {
  check(id, { ...meta, level: 'docker', seen: 'dockerd 20.10.24', tags: ['state'] }, async (context) => {
    const { cast, filters, what } = await arrange(context);
    context.expect(await filteredRoles(context, filters, cast), what).toEqual([wanted]);
  });
}

check('containers.list.filter-label', {
  title: 'the label filter (not named by the spec) lists by key (label=key) and by key and value (label=key=value)',
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
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
  spec: '1 §3, §2.1, §4.1',
  // §3 names no key for "the list filter" of states: `status` is dockerd's.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state', 'version'],
  // Four containers, three of them started, on a loaded daemon.
  timeoutMs: 45_000,
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
  if (atLeast(context.version, '1.23')) {
    const states = await listedStates(context, cast);
    context.expect(states, `State of the own list items: ${JSON.stringify(states)}`).toEqual({ created: 'created', running: 'running', paused: 'paused', exited: 'exited' });
  }
});

check('containers.list.filter-status-restarting', {
  title: 'the status filter restarting lists a container its restart policy is about to start again, and not a running one',
  spec: '1 §3, §2.3, §4.1',
  // §3 names no key for "the list filter" of states: `status` is dockerd's.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
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

check('containers.list.filter-ancestor', {
  title: 'the ancestor filter lists the containers of an image given by name, and none for an image that does not exist (or refuses it)',
  spec: '1 §9, §4.1',
  quote: ['1.24 StorageOpt, sysctls, JSON errors, hostname validation, PidMode container form, start no longer accepts HostConfig, copy removed, ancestor, before, since, volume and network container filters', '| GET /containers/json | all (boolean, default false: only running are listed), limit (integer, last created, includes non-running), since (container id), before (container id), size (boolean), filters (JSON map string to array of string) | none | 200 JSON array of container summary | 200, 400, 500 |'],
  since: '1.24',
  tags: ['state'],
  covers: ['1:GET /containers/json:query:filters', '1:version-rule:1.24:list-filters-ancestor-before-since-volume-network'],
}, async (context) => {
  // By name only: §9.4 names the filter, not the forms of its value (an image id is docker's, filter-ancestor-id).
  const cast = await createdInOrder(context, ['fixture']);
  const unknownImage = `${context.make.uniqueName('no-such-image')}:latest`;
  const unknown = await context.engine.get('/containers/json', { query: { all: '1', filters: JSON.stringify({ ancestor: [unknownImage] }) } });
  const seen = {
    name: await filteredRoles(context, { ancestor: [context.session.fixtureImage] }, cast),
    // An image that does not exist: an empty list, or a refusal, as the spec says neither.
    unknown: unknown.status === 200 ? unknown.json<{ Id: string }[]>().filter((item) => item.Id === cast.fixture).length : unknown.status >= 400 ? 0 : `status ${unknown.status}`,
  };
  context.expect(seen, `own containers listed per ancestor: ${JSON.stringify(seen)}`).toEqual({ name: ['fixture'], unknown: 0 });
});

check('containers.list.filter-before-since-exclusive', {
  title: 'the before and since filters leave out the container they name',
  spec: '1 §9',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.24',
  tags: ['state'],
}, async (context) => {
  const cast = await createdInOrder(context, ['first', 'second', 'third']);
  const seen = {
    before: await filteredRoles(context, { before: [cast.second] }, cast),
    since: await filteredRoles(context, { since: [cast.second] }, cast),
  };
  context.expect(seen, `own containers listed with before and since=<second>: ${JSON.stringify(seen)}`).toEqual({ before: ['first'], since: ['third'] });
});

check('containers.list.filter-volume', {
  title: 'the volume filter lists the containers mounting the named volume it gives, not others',
  spec: '1 §9, §2.3, §4.1, 2 §4.3',
  quote: ['| POST /volumes/create | | {Name (string; generated if omitted), Driver (default local), DriverOpts (map string to string, passed to the driver), Labels (map)} | 201 volume | 201, 500 |', '1.24 StorageOpt, sysctls, JSON errors, hostname validation, PidMode container form, start no longer accepts HostConfig, copy removed, ancestor, before, since, volume and network container filters', '| Binds | array of string | forms: host_path:container_path; host_path:container_path:ro; volume_name:container_path; volume_name:container_path:ro;', '| GET /containers/json | all (boolean, default false: only running are listed), limit (integer, last created, includes non-running), since (container id), before (container id), size (boolean), filters (JSON map string to array of string) | none | 200 JSON array of container summary | 200, 400, 500 |'],
  since: '1.24',
  tags: ['state'],
  covers: ['1:GET /containers/json:query:filters', '1:version-rule:1.24:list-filters-ancestor-before-since-volume-network'],
}, async (context) => {
  const volume = context.make.uniqueName('vol');
  // Created first: the Binds line does not say that a bind to a volume that does not exist creates it.
  const created = await context.engine.post('/volumes/create', { json: { Name: volume, Labels: context.make.labels } });
  context.expect(created.status, `POST /volumes/create: ${created.describe()}`).toBe(201);
  context.make.volume(volume);
  const cast: Cast = {
    data: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'], HostConfig: { Binds: [`${volume}:/data`] } }),
    none: await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] }),
  };
  const listed = await filteredRoles(context, { volume: [volume] }, cast);
  context.expect(listed, `own containers listed with volume=${volume}`).toEqual(['data']);
});

check('containers.list.filter-network', {
  title: 'the network filter lists the running containers on the network it names: bridge or none',
  spec: '1 §9, §2.3, §4.1',
  quote: ['1.24 StorageOpt, sysctls, JSON errors, hostname validation, PidMode container form, start no longer accepts HostConfig, copy removed, ancestor, before, since, volume and network container filters', '| NetworkMode | string | bridge, host, none, `container:<name or id>`; any other value is the name of a custom network |', '| GET /containers/json | all (boolean, default false: only running are listed), limit (integer, last created, includes non-running), since (container id), before (container id), size (boolean), filters (JSON map string to array of string) | none | 200 JSON array of container summary | 200, 400, 500 |', '| POST /containers/{id_or_name}/start |', '204 no body | 204, 304, 404, 500 |'],
  since: '1.24',
  tags: ['state'],
  covers: ['1:GET /containers/json:query:filters', '1:version-rule:1.24:list-filters-ancestor-before-since-volume-network'],
}, async (context) => {
  // Running: whether a container that was only created is on its network yet the spec does not say.
  const cast: Cast = {
    bridge: await startedContainer(context, { Cmd: RUNS, HostConfig: { NetworkMode: 'bridge' } }),
    none: await startedContainer(context, { Cmd: RUNS, HostConfig: { NetworkMode: 'none' } }),
  };
  const seen = {
    bridge: await filteredRoles(context, { network: ['bridge'] }, cast),
    none: await filteredRoles(context, { network: ['none'] }, cast),
  };
  context.expect(seen, `own containers listed per network: ${JSON.stringify(seen)}`).toEqual({ bridge: ['bridge'], none: ['none'] });
});

check('containers.list.filters-malformed', {
  title: 'a filters parameter that is not JSON answers 400',
  spec: '1 §4.1, §7.2',
  quote: ['| GET /containers/json | all (boolean, default false: only running are listed), limit (integer, last created, includes non-running), since (container id), before (container id), size (boolean), filters (JSON map string to array of string) | none | 200 JSON array of container summary | 200, 400, 500 |', '400 bad parameter'],
  since: '1.18',
  tags: ['error'],
  covers: ['1:GET /containers/json:query:filters', '1:GET /containers/json:status:400'],
}, async ({ engine, expect }) => {
  const res = await engine.get('/containers/json', { query: { all: '1', filters: '{"label":' } });
  expect(res.status, 'status').toBe(400);
});
