/**
 * The shapes of the container resources per API version (spec/1 §2.1, §2.2, §2.4). The schemas say
 * which fields a version must have; each rule about a field that a version must NOT show has a check
 * of its own, so that a daemon that still sends an old field fails that check alone.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import {
  CHANGE_KIND,
  CHANGES_SCHEMA,
  CREATE_RESPONSE_SCHEMA,
  DEPRECATED_FLAT_NETWORK_FIELDS,
  FLAT_NETWORK_FIELDS,
  TOP_SCHEMA,
  WAIT_SCHEMA,
  containerInspectSchema,
  containerSummarySchema,
} from '../../harness/schemas/container-schemas.ts';
import { atLeast, before } from '../../protocol/versions.ts';
import { createContainer, createdContainer, exitedContainer, inspectContainer, startedContainer } from '../container-steps.ts';
import { bareImageId, inspectImage } from '../image-steps.ts';

interface Inspected extends Record<string, unknown> {
  Id: string;
  State: { Running: boolean };
  NetworkSettings: Record<string, unknown>;
}

/** A created container with an anonymous volume, so that Mounts has an item to check. */
function containerWithVolume(context: CheckContext): Promise<string> {
  return createdContainer(context, { Volumes: { '/data': {} } });
}

function inspect(context: CheckContext, id: string, query?: Record<string, string>): Promise<Inspected> {
  return inspectContainer<Inspected>(context, id, query);
}

/**
 * An image name in its short form: `docker.io/library/NAME` and `docker.io/NAME` are NAME spelt in full
 * (Podman answers every name qualified so), which the spec does not tell apart.
 */
function shortImageName(name: string | undefined): string | undefined {
  return name?.replace(/^docker\.io\/(library\/)?/, '');
}

/** The id of the fixture image, as GET /images/{name}/json gives it. */
async function fixtureImageId(context: CheckContext): Promise<string> {
  return (await inspectImage(context, context.session.fixtureImage)).Id;
}

check('containers.create.schema', {
  title: 'POST /containers/create answers 201 {Id, Warnings: [string]}',
  spec: '1 §2.3, §4.1',
  quote: [
    'Response of create: object with Id (string) and Warnings (array of string).',
    '| POST /containers/create |',
    '201 {Id, Warnings}',
  ],
  since: '1.18',
  tags: ['schema'],
  covers: ['1:POST /containers/create', '1:POST /containers/create:body:Image', '1:POST /containers/create:body:Cmd', '1:POST /containers/create:status:201'],
}, async (context) => {
  const res = await createContainer(context, { Image: context.session.fixtureImage, Cmd: ['true'] });
  context.expect(res.status, 'status').toBe(201);
  assertMatchesSchema(res.json(), CREATE_RESPONSE_SCHEMA, 'the create response');
});

check('containers.inspect.schema', {
  title: 'GET /containers/{id}/json answers the inspect object of the version (State.Status from 1.21, State.Dead at 1.25)',
  spec: '1 §2.1, §2.2, §3, §4.1',
  quote: [
    'Top-level fields: AppArmorProfile (string), Args (array of string), Config (object), Created (timestamp, RFC 3339 with nanoseconds), Driver (string), ExecDriver (string, shown up to 1.21), ExecIDs (array or null), HostConfig (object), HostnamePath, HostsPath, LogPath, Id, Image (image id), MountLabel, Name (string starting with `/`), NetworkSettings (object), Path, ProcessLabel, ResolvConfPath, RestartCount (integer), State (object), Mounts (array of mount)',
    'State object: Error (string), ExitCode (integer), FinishedAt (timestamp), OOMKilled (boolean), Dead (boolean, [1.25]), Paused (boolean), Pid (integer), Restarting (boolean), Running (boolean), StartedAt (timestamp), Status (string, [1.21+], for example running).',
    'Container states visible through the API: created, restarting, running, paused, exited, dead (list filter and State field).',
    'NetworkSettings object: Bridge, SandboxID, HairpinMode (boolean), LinkLocalIPv6Address, LinkLocalIPv6PrefixLen, Ports, SandboxKey, SecondaryIPAddresses, SecondaryIPv6Addresses, EndpointID, Gateway, GlobalIPv6Address, GlobalIPv6PrefixLen, IPAddress, IPPrefixLen, IPv6Gateway, MacAddress, Networks (map network name to endpoint settings).',
    'Config object in the inspect response carries the creation Config fields in 2.3 (Hostname, Domainname, User, AttachStdin, AttachStdout, AttachStderr, Tty, OpenStdin, StdinOnce, Env, Cmd, Entrypoint, Image, Labels, Volumes, WorkingDir, NetworkDisabled, MacAddress, ExposedPorts, StopSignal, OnBuild).',
    'Mount object: Name, Source, Destination, Driver, Mode (string such as read-only flags), RW (boolean), Propagation (string). Name, Driver and Propagation appear from 1.23 on.',
    'Endpoint settings object: IPAMConfig, Links, Aliases, NetworkID, EndpointID, Gateway, IPAddress, IPPrefixLen (integer), IPv6Gateway, GlobalIPv6Address, GlobalIPv6PrefixLen (integer), MacAddress.',
    '| GET /containers/{id_or_name}/json | size (boolean, default false) | none | 200 inspect object |',
  ],
  since: '1.18',
  tags: ['schema'],
  covers: [
    '1:GET /containers/{id_or_name}/json',
    '1:GET /containers/{id_or_name}/json:status:200',
    '1:version-rule:1.21:state-status',
    '1:version-rule:1.25:dead-state',
  ],
}, async (context) => {
  const id = await containerWithVolume(context);
  const res = await context.engine.get(`/containers/${id}/json`);
  context.expect(res.status, 'status').toBe(200);
  assertMatchesSchema(res.json(), containerInspectSchema(context.version), `the inspect object at ${context.version}`);
});

check('containers.inspect.size', {
  title: 'GET /containers/{id}/json?size=1 adds SizeRw and SizeRootFs (integers) from 1.21',
  spec: '1 §2.2, §9.4',
  quote: [
    'With query size=1: SizeRw and SizeRootFs (integers).',
    '1.21 ImageID, StopSignal, per-network stats and settings, inspect size parameter',
  ],
  since: '1.21',
  tags: ['schema', 'version'],
  covers: ['1:GET /containers/{id_or_name}/json:query:size', '1:version-rule:1.21:inspect-size'],
}, async (context) => {
  const id = await createdContainer(context);
  const container = await inspect(context, id, { size: '1' });
  const sizes = { SizeRw: Number.isInteger(container.SizeRw), SizeRootFs: Number.isInteger(container.SizeRootFs) };
  context.expect(sizes, `SizeRw ${JSON.stringify(container.SizeRw)} and SizeRootFs ${JSON.stringify(container.SizeRootFs)} integers`).toEqual({ SizeRw: true, SizeRootFs: true });
});

check('containers.inspect.volumes-maps', {
  title: 'inspect shows the Volumes and VolumesRW maps at 1.18 only',
  spec: '1 §2.2',
  quote: [
    'Volumes and VolumesRW (maps, shown only at 1.18)',
  ],
  since: '1.18',
  tags: ['version'],
  covers: ['1:GET /containers/{id_or_name}/json', '1:version-rule:1.19:inspect-volumes-fields-removed'],
}, async (context) => {
  const container = await inspect(context, await containerWithVolume(context));
  const shown = { Volumes: 'Volumes' in container, VolumesRW: 'VolumesRW' in container };
  const expected = before(context.version, '1.19');
  context.expect(shown, `Volumes and VolumesRW shown at ${context.version}: ${JSON.stringify(shown)}`).toEqual({ Volumes: expected, VolumesRW: expected });
});

check('containers.inspect.exec-driver', {
  title: 'inspect shows ExecDriver (a string) up to 1.21 and not from 1.22',
  spec: '1 §2.2',
  quote: [
    'ExecDriver (string, shown up to 1.21)',
  ],
  since: '1.18',
  tags: ['version'],
  covers: ['1:GET /containers/{id_or_name}/json', '1:version-rule:1.22:exec-driver-removed'],
}, async (context) => {
  const container = await inspect(context, await createdContainer(context));
  const expected = before(context.version, '1.22') ? 'string' : 'undefined';
  context.expect(typeof container.ExecDriver, `type of ExecDriver at ${context.version}`).toBe(expected);
});

check('containers.inspect.network-settings', {
  title: 'NetworkSettings has the flat fields (with PortMapping) before 1.21; from 1.21 it has Networks and keeps the deprecated flat fields',
  spec: '1 §2.2',
  quote: [
    'Before 1.21 only the flat fields (Bridge, Gateway, IPAddress, IPPrefixLen, MacAddress, PortMapping, Ports) appear.',
    'From 1.21 the flat Gateway, IPAddress, IPPrefixLen and MacAddress are deprecated in favour of Networks but still returned.',
    'Networks (map network name to endpoint settings)',
  ],
  since: '1.18',
  tags: ['version'],
  covers: ['1:GET /containers/{id_or_name}/json', '1:version-rule:1.21:per-network-settings'],
}, async (context) => {
  const { NetworkSettings: settings } = await inspect(context, await createdContainer(context));
  const present = (fields: readonly string[]) => fields.filter((field) => field in settings);
  if (before(context.version, '1.21')) {
    // Networks is not asserted absent: a newer daemon may return new properties at older versions (§1, §9.1).
    context.expect(present(FLAT_NETWORK_FIELDS), `flat fields present, of NetworkSettings ${JSON.stringify(Object.keys(settings))}`).toEqual([...FLAT_NETWORK_FIELDS]);
  } else {
    context.expect(present(DEPRECATED_FLAT_NETWORK_FIELDS), `deprecated flat fields still present, of NetworkSettings ${JSON.stringify(Object.keys(settings))}`).toEqual([...DEPRECATED_FLAT_NETWORK_FIELDS]);
    context.expect(typeof settings.Networks, 'type of NetworkSettings.Networks').toBe('object');
    context.expect(settings.Networks, 'NetworkSettings.Networks').not.toBeNull();
  }
});

check('containers.inspect.network-settings-flat', {
  title: 'before 1.21 NetworkSettings has no Networks',
  spec: '1 §2.2',
  // §2.2 says only the flat fields appear before 1.21; §1 and §9.1 let a newer daemon return new properties at older versions.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  until: '1.20',
  tags: ['version'],
}, async (context) => {
  const { NetworkSettings: settings } = await inspect(context, await createdContainer(context));
  context.expect('Networks' in settings, `NetworkSettings.Networks present, of NetworkSettings ${JSON.stringify(Object.keys(settings))}`).toBe(false);
});

check('containers.list.schema', {
  title: 'GET /containers/json items have the fields of the version: ImageID from 1.21; State, HostConfig, NetworkSettings, Mounts from 1.23',
  spec: '1 §2, §4.1',
  quote: [
    'A value marked [1.21+] and so on is present only from that API version on.',
    '| Id | string | container identifier |',
    '| Names | array of string | each starts with `/` |',
    '| Image | string | image name used |',
    '| ImageID | string | [1.21+] |',
    '| Command | string |',
    '| Created | integer | Unix time in seconds |',
    '| State | string | [1.23+] one of created, restarting, running, paused, exited, dead |',
    '| Status | string | human-readable status |',
    '| Ports | array of object | each: PrivatePort (integer), PublicPort (integer), Type (string, tcp or udp) |',
    '| Labels | object string to string |',
    '| SizeRw | integer | present when size is requested |',
    '| SizeRootFs | integer | present when size is requested |',
    '| HostConfig | object | [1.23+] holds NetworkMode (string) |',
    '| NetworkSettings | object | [1.23+] holds Networks, a map from network name to endpoint settings |',
    '| Mounts | array of mount | [1.23+] |',
    'Endpoint settings object: IPAMConfig, Links, Aliases, NetworkID, EndpointID, Gateway, IPAddress, IPPrefixLen (integer), IPv6Gateway, GlobalIPv6Address, GlobalIPv6PrefixLen (integer), MacAddress.',
    'Mount object: Name, Source, Destination, Driver, Mode (string such as read-only flags), RW (boolean), Propagation (string). Name, Driver and Propagation appear from 1.23 on.',
    '| GET /containers/json | all (boolean, default false: only running are listed)',
    '200 JSON array of container summary',
  ],
  since: '1.18',
  tags: ['schema'],
  covers: [
    '1:GET /containers/json',
    '1:GET /containers/json:status:200',
    '1:version-rule:1.21:list-image-id',
    '1:version-rule:1.23:list-state',
    '1:version-rule:1.23:list-mounts',
    '1:version-rule:1.23:list-host-config-network-settings',
  ],
}, async (context) => {
  const id = await containerWithVolume(context);
  // Other checks create containers at the same time: judge only this check's own item.
  const res = await context.engine.get('/containers/json', { query: { all: '1' } });
  context.expect(res.status, 'status').toBe(200);
  const item = res.json<{ Id: string }[]>().find((summary) => summary.Id === id);
  context.expect(item, 'the created container in the list with all=1').toBeDefined();
  assertMatchesSchema(item, containerSummarySchema(context.version), `the list item at ${context.version}`);
});

check('containers.list.size', {
  title: 'GET /containers/json?size=1 gives each item SizeRw and SizeRootFs (integers)',
  spec: '1 §2.1, §4.1',
  quote: [
    '| SizeRw | integer | present when size is requested |',
    '| SizeRootFs | integer | present when size is requested |',
    '| GET /containers/json | all (boolean, default false: only running are listed)',
    'size (boolean)',
  ],
  since: '1.18',
  tags: ['schema'],
  covers: ['1:GET /containers/json:query:size'],
}, async (context) => {
  const id = await createdContainer(context);
  // No `id` filter: the spec defines none for the container list.
  const res = await context.engine.get('/containers/json', { query: { all: '1', size: '1' } });
  context.expect(res.status, 'status').toBe(200);
  const item = res.json<Record<string, unknown>[]>().find((summary) => summary.Id === id);
  context.expect(item, 'the created container in the list').toBeDefined();
  const sizes = { SizeRw: Number.isInteger(item?.SizeRw), SizeRootFs: Number.isInteger(item?.SizeRootFs) };
  context.expect(sizes, `SizeRw ${JSON.stringify(item?.SizeRw)} and SizeRootFs ${JSON.stringify(item?.SizeRootFs)} integers`).toEqual({ SizeRw: true, SizeRootFs: true });
});

check('containers.top.schema', {
  title: 'GET /containers/{id}/top of a running container answers {Titles, Processes}, one row per process, one column per title',
  spec: '1 §2.4, §4.1',
  quote: [
    'Top: Titles (array of string), Processes (array of arrays of string).',
    '| GET /containers/{id_or_name}/top | ps_args (string, default `-ef`) | none | 200 {Titles, Processes}; not supported on Windows | 200, 404, 500 |',
  ],
  since: '1.18',
  tags: ['schema'],
  covers: ['1:GET /containers/{id_or_name}/top', '1:GET /containers/{id_or_name}/top:status:200'],
}, async (context) => {
  const { engine, expect } = context;
  const id = await startedContainer(context, { Cmd: ['sleep', '300'] });
  const res = await engine.get(`/containers/${id}/top`);
  expect(res.status, 'status').toBe(200);
  const top = res.json<{ Titles: string[]; Processes: string[][] }>();
  assertMatchesSchema(top, TOP_SCHEMA, 'the top answer');
  expect(top.Processes.length, 'number of processes').toBeGreaterThanOrEqual(1);
  expect(top.Processes.map((row) => row.length), `columns of each process row, for ${top.Titles.length} titles: ${JSON.stringify(top)}`).toEqual(top.Processes.map(() => top.Titles.length));
});

/** A container that adds /added and /tmp/created and deletes /etc/passwd, run to its end. */
function containerWithChanges(context: CheckContext): Promise<string> {
  return exitedContainer(context, { Cmd: ['sh', '-c', 'mkdir -p /added; touch /tmp/created; rm /etc/passwd'] });
}

check('containers.changes.schema', {
  title: 'GET /containers/{id}/changes answers an array of {Path, Kind 0|1|2}',
  spec: '1 §2.4, §4.1',
  quote: [
    'Changes: array of {Path: string, Kind: integer}; Kind 0 is modify, 1 is add, 2 is delete.',
    '| GET /containers/{id_or_name}/changes | | none | 200 array of {Path, Kind} | 200, 404, 500 |',
  ],
  since: '1.18',
  tags: ['schema'],
  covers: ['1:GET /containers/{id_or_name}/changes', '1:GET /containers/{id_or_name}/changes:status:200'],
}, async (context) => {
  const id = await containerWithChanges(context);
  const res = await context.engine.get(`/containers/${id}/changes`);
  context.expect(res.status, 'status').toBe(200);
  assertMatchesSchema(res.json(), CHANGES_SCHEMA, 'the changes answer');
});

/** The Kind changes reports for each of `paths` in what the container changed; undefined where it reports none. */
async function kindsOf(context: CheckContext, id: string, paths: string[]): Promise<{ Path: string; Kind: number | undefined }[]> {
  const res = await context.engine.get(`/containers/${id}/changes`);
  context.expect(res.status, 'GET /containers/{id}/changes status').toBe(200);
  const changes = res.json<{ Path: string; Kind: number }[] | null>() ?? [];
  const byPath = new Map(changes.map((change) => [change.Path, change.Kind]));
  return paths.map((Path) => ({ Path, Kind: byPath.get(Path) }));
}

check('containers.changes.kinds', {
  title: 'changes reports an added path as Kind 1 and a deleted one as Kind 2',
  spec: '1 §2.4, §4.1',
  quote: [
    'Changes: array of {Path: string, Kind: integer}; Kind 0 is modify, 1 is add, 2 is delete.',
    '| GET /containers/{id_or_name}/changes | | none | 200 array of {Path, Kind} | 200, 404, 500 |',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['1:GET /containers/{id_or_name}/changes', '1:GET /containers/{id_or_name}/changes:status:200'],
}, async (context) => {
  const id = await containerWithChanges(context);
  const expected = [
    { Path: '/added', Kind: CHANGE_KIND.add },
    { Path: '/tmp/created', Kind: CHANGE_KIND.add },
    { Path: '/etc/passwd', Kind: CHANGE_KIND.delete },
  ];
  const seen = await kindsOf(context, id, expected.map(({ Path }) => Path));
  context.expect(seen, `kinds of the changed paths: ${JSON.stringify(seen)}`).toEqual(expected);
});

check('containers.changes.parent-modified', {
  title: 'changes reports the existing directories a path was added to or deleted from as modified (Kind 0)',
  spec: '1 §2.4',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const id = await containerWithChanges(context);
  const expected = [
    { Path: '/tmp', Kind: CHANGE_KIND.modify },
    { Path: '/etc', Kind: CHANGE_KIND.modify },
  ];
  const seen = await kindsOf(context, id, expected.map(({ Path }) => Path));
  context.expect(seen, `kinds of the parent directories: ${JSON.stringify(seen)}`).toEqual(expected);
});

check('containers.inspect.image-id', {
  title: 'inspect shows the id of the image the container was created from as Image, and the name given as Config.Image',
  spec: '1 §2.2, 2 §2.1',
  quote: [
    'Image (image id)',
    'Config object in the inspect response carries the creation Config fields in 2.3',
    'Id, Parent, Size',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['1:GET /containers/{id_or_name}/json'],
}, async (context) => {
  const { fixtureImage } = context.session;
  const id = await createdContainer(context);
  const { Image, Config } = await inspectContainer<{ Image: string; Config: { Image: string } }>(context, id);
  const imageId = await fixtureImageId(context);
  // Ids compare bare: whether an id carries its sha256: the spec does not say.
  context.expect({ Image: bareImageId(Image), ConfigImage: shortImageName(Config.Image) }, `inspect Image ${Image} and Config.Image ${Config.Image} of a container of ${fixtureImage} (image id ${imageId})`).toEqual({ Image: bareImageId(imageId), ConfigImage: fixtureImage });
});

check('containers.list.image', {
  title: 'a list item shows the image name the container was created with as Image and, from 1.21, the image id as ImageID',
  spec: '1 §2.1, 2 §2.1',
  quote: [
    '| Image | string | image name used |',
    '| ImageID | string | [1.21+] |',
    'Id, Parent, Size',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['1:GET /containers/json', '1:version-rule:1.21:list-image-id'],
}, async (context) => {
  const { fixtureImage } = context.session;
  const id = await createdContainer(context);
  const res = await context.engine.get('/containers/json', { query: { all: '1' } });
  context.expect(res.status, 'GET /containers/json?all=1 status').toBe(200);
  const item = res.json<{ Id: string; Image: string; ImageID?: string }[]>().find((summary) => summary.Id === id);
  context.expect(item, 'the created container in the list with all=1').toBeDefined();
  const imageId = await fixtureImageId(context);
  const newer = atLeast(context.version, '1.21');
  context.expect({ Image: shortImageName(item?.Image), ...(newer && { ImageID: bareImageId(item?.ImageID ?? '') }) }, `the list item ${JSON.stringify(item)} of a container of ${fixtureImage} (image id ${imageId})`).toEqual({ Image: fixtureImage, ...(newer && { ImageID: bareImageId(imageId) }) });
});

check('containers.wait.schema', {
  title: 'POST /containers/{id}/wait answers 200 {StatusCode: integer}',
  spec: '1 §2.4, §4.1',
  quote: [
    'Wait: {StatusCode: integer}.',
    '| POST /containers/{id_or_name}/wait | | none | 200 {StatusCode} | 200, 404, 500 |',
  ],
  since: '1.18',
  tags: ['schema'],
  covers: ['1:POST /containers/{id_or_name}/wait', '1:POST /containers/{id_or_name}/wait:status:200'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: ['true'] });
  const res = await context.engine.post(`/containers/${id}/wait`);
  context.expect(res.status, 'status').toBe(200);
  assertMatchesSchema(res.json(), WAIT_SCHEMA, 'the wait answer');
});
