/**
 * The create-body fields that came with an API version (spec/1 §9.4, §2.3): from that version a
 * create accepts the field, and inspect Config shows a Config field back (§2.2). That inspect's
 * HostConfig shows a HostConfig field back is dockerd's (§2.2 gives only "HostConfig (object)"): the
 * docker-level `-in-inspect` twins pin it. Creates and inspects go
 * at the version under test. Before a field's version the spec states no rule (a client of that
 * version does not send the field), so the checks start at it: dockerd keeps every one of these
 * fields at every version, AutoRemove aside, which it resets before 1.25.
 * The list-item fields of §9.4 (ImageID, State, Mounts) are containers.list.schema's.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { atLeast } from '../../protocol/versions.ts';
import { createContainer, createdContainer, exitedContainer, inspectContainer, loggedStdout, mountsIn, type InspectedMounts } from '../container-steps.ts';
import { createAndInspect, roundTripChecks, type RoundTrip } from './create-round-trip.ts';

const MIB = 1024 * 1024;
const SEEN = 'dockerd 20.10.24';
/** dockerd's /dev/shm size when a create gives none: 64 MiB (spec/1 §8's "64 MB" may as well be 64 000 000 bytes). */
const DOCKERD_SHM_SIZE = 64 * MIB;

/**
 * The block device of the rate limits need not exist: a daemon resolves it when the container starts,
 * and these containers never start. A real device path of the target's host is not visible over the
 * API, so the limits are checked as fields that round-trip, not as limits that apply.
 */
const BLOCK_DEVICE = '/dev/sda';

const ROUND_TRIPS: RoundTrip[] = [
  {
    id: 'ulimits',
    since: '1.18',
    quote: ['1.18 ulimits, CgroupParent', '| Ulimits | array of object | {Name, Soft, Hard} |'],
    title: 'HostConfig.Ulimits [{Name, Soft, Hard}] is accepted',
    covers: ['1:POST /containers/create:body:HostConfig.Ulimits', '1:version-rule:1.18:ulimits'],
    hostConfig: { Ulimits: [{ Name: 'nofile', Soft: 1024, Hard: 2048 }] },
  },
  {
    id: 'cgroup-parent',
    since: '1.18',
    quote: ['1.18 ulimits, CgroupParent', '| CgroupParent | string | cgroups path under which the container cgroup is created; relative paths are relative to the cgroups path of the init process; created if missing |'],
    title: 'HostConfig.CgroupParent is accepted',
    covers: ['1:POST /containers/create:body:HostConfig.CgroupParent', '1:version-rule:1.18:cgroup-parent'],
    hostConfig: { CgroupParent: '/shipshape-parent' },
  },
  {
    id: 'cpu-period-quota',
    since: '1.19',
    quote: ['1.19 stats stream, logs since, CpuPeriod and CpuQuota', '| CpuPeriod | integer | [1.19+] CPU period length in microseconds |', '| CpuQuota | integer | [1.19+] microseconds of CPU time per period |'],
    title: 'HostConfig.CpuPeriod and CpuQuota are accepted from 1.19',
    covers: ['1:POST /containers/create:body:HostConfig.CpuPeriod', '1:POST /containers/create:body:HostConfig.CpuQuota', '1:version-rule:1.19:cpu-period-quota'],
    hostConfig: { CpuPeriod: 100_000, CpuQuota: 50_000 },
  },
  {
    id: 'group-add',
    since: '1.20',
    quote: ['1.20 archive endpoints, copy deprecated, GroupAdd', '| GroupAdd | array of string | [1.20+] additional groups |'],
    title: 'HostConfig.GroupAdd is accepted from 1.20',
    covers: ['1:POST /containers/create:body:HostConfig.GroupAdd', '1:version-rule:1.20:group-add'],
    hostConfig: { GroupAdd: ['1234'] },
  },
  {
    id: 'stop-signal',
    since: '1.21',
    quote: ['Config object in the inspect response carries the creation Config fields in 2.3', '1.21 ImageID, StopSignal', '| StopSignal | string or unsigned integer | [1.21+] signal used to stop; default SIGTERM |'],
    title: 'StopSignal is accepted from 1.21 and shown back in inspect Config',
    covers: ['1:POST /containers/create:body:StopSignal', '1:version-rule:1.21:stop-signal'],
    config: { StopSignal: 'SIGUSR1' },
  },
  {
    id: 'oom-score-adj',
    since: '1.21',
    quote: ['inspect size parameter, OomScoreAdj', '| OomScoreAdj | integer | OOM killer preference |'],
    title: 'HostConfig.OomScoreAdj is accepted from 1.21',
    covers: ['1:POST /containers/create:body:HostConfig.OomScoreAdj', '1:version-rule:1.21:oom-score-adj'],
    hostConfig: { OomScoreAdj: 300 },
  },
  {
    id: 'dns-options',
    since: '1.21',
    quote: ['exec start 409 for stopped containers, DnsOptions, VolumeDriver', '| Dns, DnsOptions, DnsSearch | array of string | DnsOptions from 1.21 |'],
    title: 'HostConfig.DnsOptions is accepted from 1.21',
    covers: ['1:POST /containers/create:body:HostConfig.DnsOptions', '1:version-rule:1.21:dns-options'],
    hostConfig: { DnsOptions: ['ndots:2'] },
  },
  {
    id: 'volume-driver',
    since: '1.21',
    quote: ['exec start 409 for stopped containers, DnsOptions, VolumeDriver', '| VolumeDriver | string | [1.21+] driver for mounting volumes |'],
    title: 'HostConfig.VolumeDriver is accepted from 1.21',
    covers: ['1:POST /containers/create:body:HostConfig.VolumeDriver', '1:version-rule:1.21:volume-driver'],
    hostConfig: { VolumeDriver: 'local' },
  },
  {
    id: 'memory-reservation',
    since: '1.21',
    quote: ['| MemoryReservation | integer | [1.21+] soft limit in bytes |'],
    title: 'HostConfig.MemoryReservation (a soft limit) is accepted from 1.21',
    covers: ['1:POST /containers/create:body:HostConfig.MemoryReservation', '1:version-rule:1.21:memory-reservation'],
    hostConfig: { MemoryReservation: 32 * MIB },
  },
  {
    id: 'log-driver-awslogs',
    since: '1.21',
    quote: ['| LogConfig | object | {Type, Config}; Type values: json-file, syslog, journald, gelf, none, plus awslogs (from 1.21), fluentd, splunk, etwlogs (1.25) |'],
    title: 'HostConfig.LogConfig of Type awslogs is accepted from 1.21',
    covers: ['1:POST /containers/create:body:HostConfig.LogConfig', '1:version-rule:1.21:log-driver-awslogs'],
    // The group is required at create; the driver reaches AWS only when the container starts, and these never start.
    hostConfig: { LogConfig: { Type: 'awslogs', Config: { 'awslogs-group': 'shipshape', 'awslogs-region': 'eu-west-1' } } },
  },
  {
    id: 'blkio-device-rates',
    since: '1.22',
    quote: ['1.22 update endpoint, container network list, KernelMemory minimum, read and write rate limits', '| BlkioDeviceReadBps, BlkioDeviceWriteBps | array of {Path, Rate} | bytes per second |', '| BlkioDeviceReadIOps, BlkioDeviceWriteIOps | array of {Path, Rate} | IO per second |'],
    title: 'HostConfig.BlkioDeviceReadBps, WriteBps, ReadIOps and WriteIOps [{Path, Rate}] are accepted from 1.22',
    covers: ['1:POST /containers/create:body:HostConfig.BlkioDeviceReadBps', '1:POST /containers/create:body:HostConfig.BlkioDeviceWriteBps', '1:POST /containers/create:body:HostConfig.BlkioDeviceReadIOps', '1:POST /containers/create:body:HostConfig.BlkioDeviceWriteIOps', '1:version-rule:1.22:io-rate-limits'],
    hostConfig: {
      BlkioDeviceReadBps: [{ Path: BLOCK_DEVICE, Rate: 1 * MIB }],
      BlkioDeviceWriteBps: [{ Path: BLOCK_DEVICE, Rate: 2 * MIB }],
      BlkioDeviceReadIOps: [{ Path: BLOCK_DEVICE, Rate: 100 }],
      BlkioDeviceWriteIOps: [{ Path: BLOCK_DEVICE, Rate: 200 }],
    },
  },
  {
    id: 'storage-opt',
    since: '1.24',
    quote: ['1.24 StorageOpt, sysctls', '| StorageOpt | object | [1.24+] storage driver options per container |'],
    title: 'HostConfig.StorageOpt is accepted from 1.24',
    covers: ['1:POST /containers/create:body:HostConfig.StorageOpt', '1:version-rule:1.24:storage-opt'],
    // Which options a storage driver takes, and on what backing filesystem, is the host's matter.
    hostConfig: { StorageOpt: { size: '1G' } },
    requires: ['storage-opt'],
  },
  {
    id: 'sysctls',
    since: '1.24',
    quote: ['1.24 StorageOpt, sysctls', '| Sysctls | object | [1.24+] kernel parameter name to string value |'],
    title: 'HostConfig.Sysctls is accepted from 1.24',
    covers: ['1:POST /containers/create:body:HostConfig.Sysctls', '1:version-rule:1.24:sysctls'],
    hostConfig: { Sysctls: { 'net.ipv4.ip_forward': '1' } },
  },
  {
    id: 'userns-mode',
    since: '1.25',
    quote: ['1.25 AutoRemove, UsernsMode', '| UsernsMode | string | [1.25] supported value: host |'],
    title: 'HostConfig.UsernsMode host is accepted at 1.25',
    covers: ['1:POST /containers/create:body:HostConfig.UsernsMode', '1:version-rule:1.25:userns-mode'],
    hostConfig: { UsernsMode: 'host' },
  },
  {
    id: 'auto-remove-field',
    since: '1.25',
    quote: ['1.25 AutoRemove', '| AutoRemove | boolean | [1.25] remove container when its process exits; exclusive with a RestartPolicy other than none |'],
    title: 'HostConfig.AutoRemove is accepted at 1.25',
    covers: ['1:POST /containers/create:body:HostConfig.AutoRemove', '1:version-rule:1.25:auto-remove'],
    hostConfig: { AutoRemove: true },
  },
];

roundTripChecks(ROUND_TRIPS, { spec: '1 §2.2, §2.3, §4.1, §9.4', quote: ['| POST /containers/create |', '201 {Id, Warnings}'], tags: ['version'] });

check('containers.create.stop-signal-number', {
  title: 'StopSignal given as an unsigned integer (2) is accepted from 1.21 and kept in inspect Config.StopSignal (as 2, or spelt as signal 2)',
  spec: '1 §2.2, §2.3, §4.1',
  quote: [
    '| StopSignal | string or unsigned integer | [1.21+] signal used to stop; default SIGTERM |',
    'Config object in the inspect response carries the creation Config fields in 2.3',
    '| POST /containers/create |',
    '201 {Id, Warnings}',
  ],
  since: '1.21',
  tags: ['version'],
  covers: ['1:POST /containers/create:body:StopSignal'],
}, async (context) => {
  // Config carries the field as given (2); a daemon that spells signal 2 as "2", "SIGINT" or "INT" keeps it too. The default (SIGTERM) does not.
  const { Config } = await createAndInspect(context, { StopSignal: 2 });
  const kept = [2, '2', 'SIGINT', 'INT'].includes(Config.StopSignal as string | number);
  context.expect(kept, `inspect Config.StopSignal for StopSignal 2 (2, "2", "SIGINT" or "INT"): ${JSON.stringify(Config.StopSignal)}`).toBe(true);
});

check('containers.create.pids-limit', {
  title: 'HostConfig.PidsLimit 64 and -1 (unlimited) are accepted from 1.23',
  spec: '1 §2.3, §4.1, §9.4',
  quote: [
    '1.23 container State and Mounts in the list, PidsLimit',
    '| PidsLimit | integer | -1 means unlimited |',
    '| POST /containers/create |',
    '201 {Id, Warnings}',
  ],
  since: '1.23',
  tags: ['version'],
  covers: ['1:POST /containers/create:body:HostConfig.PidsLimit', '1:version-rule:1.23:pids-limit'],
}, async (context) => {
  await createAndInspect(context, { HostConfig: { PidsLimit: 64 } });
  await createAndInspect(context, { HostConfig: { PidsLimit: -1 } });
});

check('containers.create.pids-limit-in-inspect', {
  title: 'inspect HostConfig.PidsLimit shows 64 back as the create gave it',
  spec: '1 §2.3',
  level: 'docker',
  seen: SEEN,
  since: '1.23',
  tags: ['version'],
}, async (context) => {
  const { HostConfig } = await createAndInspect(context, { HostConfig: { PidsLimit: 64 } });
  context.expect(HostConfig.PidsLimit, 'inspect HostConfig.PidsLimit for PidsLimit 64').toBe(64);
});

/** The PidMode naming another container of the check, never started. */
async function containerPidMode(context: CheckContext): Promise<string> {
  return `container:${await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] })}`;
}

check('containers.create.pid-mode-container', {
  title: 'HostConfig.PidMode container:<id> is accepted from 1.24',
  spec: '1 §2.3, §4.1, §9.4',
  quote: [
    '1.24 StorageOpt, sysctls, JSON errors, hostname validation, PidMode container form',
    '| PidMode | string | empty, `container:<name or id>` or `host` |',
    '| POST /containers/create |',
    '201 {Id, Warnings}',
  ],
  since: '1.24',
  tags: ['version'],
  covers: ['1:POST /containers/create:body:HostConfig.PidMode', '1:version-rule:1.24:pid-mode-container'],
}, async (context) => {
  await createAndInspect(context, { HostConfig: { PidMode: await containerPidMode(context) } });
});

check('containers.create.pid-mode-container-in-inspect', {
  title: 'inspect HostConfig.PidMode shows container:<id> back as the create gave it',
  spec: '1 §2.3',
  level: 'docker',
  seen: SEEN,
  since: '1.24',
  tags: ['version'],
}, async (context) => {
  const pidMode = await containerPidMode(context);
  const { HostConfig } = await createAndInspect(context, { HostConfig: { PidMode: pidMode } });
  context.expect(HostConfig.PidMode, `inspect HostConfig.PidMode for PidMode ${pidMode}`).toBe(pidMode);
});

check('containers.create.shm-size', {
  title: 'HostConfig.ShmSize (a size greater than 0) is accepted at 1.25',
  spec: '1 §2.3, §4.1, §9.4',
  quote: [
    '1.25 AutoRemove, UsernsMode, NetworkingConfig, ShmSize',
    '| ShmSize | integer | [1.25] size of /dev/shm in bytes, greater than 0; default 64 MB |',
    '| POST /containers/create |',
    '201 {Id, Warnings}',
  ],
  since: '1.25',
  tags: ['version'],
  covers: ['1:POST /containers/create:body:HostConfig.ShmSize', '1:version-rule:1.25:shm-size'],
}, async (context) => {
  await createAndInspect(context, { HostConfig: { ShmSize: 32 * MIB } });
});

check('containers.create.shm-size-in-inspect', {
  title: 'inspect HostConfig.ShmSize shows a given size back, and 64 MiB (67108864) when the create gives none',
  spec: '1 §2.3, §8',
  level: 'docker',
  seen: SEEN,
  since: '1.25',
  tags: ['version'],
}, async (context) => {
  const sizes = {
    given: (await createAndInspect(context, { HostConfig: { ShmSize: 32 * MIB } })).HostConfig.ShmSize,
    unset: (await createAndInspect(context, {})).HostConfig.ShmSize,
  };
  context.expect(sizes, `inspect HostConfig.ShmSize for ShmSize 32 MiB and for none: ${JSON.stringify(sizes)}`).toEqual({ given: 32 * MIB, unset: DOCKERD_SHM_SIZE });
});

check('containers.create.networking-config', {
  title: 'NetworkingConfig {EndpointsConfig: {<network>: {IPAMConfig, Links, Aliases}}} is accepted at 1.25; the container is on that network',
  spec: '1 §2.2, §2.3, §4.1, §9.4',
  quote: [
    '1.25 AutoRemove, UsernsMode, NetworkingConfig',
    '| NetworkingConfig | object | [1.25] EndpointsConfig: map from network name to an object with IPAMConfig (IPv4Address, IPv6Address, LinkLocalIPs array), Links (array of string), Aliases (array of string) |',
    '| NetworkMode | string | bridge, host, none, `container:<name or id>`; any other value is the name of a custom network |',
    'Networks (map network name to endpoint settings)',
    '| POST /containers/create |',
    '201 {Id, Warnings}',
  ],
  since: '1.25',
  tags: ['version'],
  covers: ['1:POST /containers/create:body:NetworkingConfig', '1:version-rule:1.25:networking-config', '1:version-rule:1.22:static-ip-at-create'],
}, async (context) => {
  // The shape only, on the default network: what the endpoint settings do is a rule of the network checks.
  const endpoint = { IPAMConfig: {}, Links: [], Aliases: [] };
  const { NetworkSettings } = await createAndInspect(context, {
    HostConfig: { NetworkMode: 'bridge' },
    NetworkingConfig: { EndpointsConfig: { bridge: endpoint } },
  });
  const networks = Object.keys(NetworkSettings.Networks ?? {});
  context.expect(networks, `networks in inspect NetworkSettings.Networks: ${JSON.stringify(networks)}`).toEqual(['bridge']);
});

check('containers.create.hostname-and-domainname', {
  title: 'with both Hostname and Domainname given, the container hostname is Hostname alone from 1.23',
  spec: '1 §2.3, §4.1, §4.4',
  quote: [
    'when Hostname and Domainname are both given (1.23+), the container hostname is Hostname alone',
    '| GET /containers/{id_or_name}/logs |',
    '| LogConfig | object | {Type, Config}; Type values: json-file,',
    'stream, see 4.4; only for containers using the json-file or journald log drivers',
    'When Tty is disabled, the stream is multiplexed into frames.',
  ],
  since: '1.23',
  tags: ['version', 'state'],
  covers: ['1:POST /containers/create:body:Hostname', '1:POST /containers/create:body:Domainname', '1:version-rule:1.23:hostname-and-domainname'],
}, async (context) => {
  // The json-file log driver, named: logs serve only json-file and journald, and the spec gives no default driver.
  const id = await exitedContainer(context, { Cmd: ['hostname'], Hostname: 'shiphost', Domainname: 'example.org', Tty: false, HostConfig: { LogConfig: { Type: 'json-file', Config: {} } } });
  context.expect(await loggedStdout(context, id), 'what `hostname` printed in a container of Hostname shiphost, Domainname example.org').toBe('shiphost\n');
});

/** The status of HEAD archive of `path` in the container: whether the path exists there. */
async function statStatus({ engine }: CheckContext, id: string, path: string): Promise<number> {
  return (await engine.head(`/containers/${id}/archive`, { query: { path } })).status;
}

check('containers.create.volume-nocopy', {
  title: 'from 1.23 a named volume bound with mode nocopy stays empty, where one bound without it gets what the image holds there',
  spec: '1 §9.4',
  // §9.4 names "nocopy for named volumes" at 1.23, nothing more: neither the Binds form (":nocopy") nor
  // that a named volume bound without it is filled with what the image holds there. Both are dockerd's.
  level: 'docker',
  seen: SEEN,
  since: '1.23',
  tags: ['version', 'state'],
  covers: ['1:POST /containers/create:body:HostConfig.Binds', '1:version-rule:1.23:volume-nocopy'],
}, async (context) => {
  // Each container runs to its end: dockerd fills a new volume at create, Podman at the first start; HEAD archive reads through the mounts.
  const seen: Record<string, number> = {};
  for (const mode of ['nocopy', 'rw']) {
    const volume = context.make.uniqueName('vol');
    context.make.volume(volume);
    const id = await exitedContainer(context, { Cmd: ['true'], HostConfig: { Binds: [`${volume}:/etc:${mode}`] } });
    seen[mode] = await statStatus(context, id, '/etc/passwd');
  }
  context.expect(seen, `HEAD archive of /etc/passwd per mode of the volume on /etc: ${JSON.stringify(seen)}`).toEqual({ nocopy: 404, rw: 200 });
});

check('containers.create.binds-bare-path', {
  title: 'up to 1.24 a bare container path in HostConfig.Binds creates a new volume mounted there (the form is gone at 1.25)',
  spec: '1 §2.1, §2.2, §2.3, §4.1',
  quote: [
    '| Binds | array of string | forms: host_path:container_path; host_path:container_path:ro; volume_name:container_path; volume_name:container_path:ro; up to 1.24 also a bare container_path creating a new volume |',
    'Mounts (array of mount)',
    'Volumes and VolumesRW (maps, shown only at 1.18)',
    'Mount object: Name, Source, Destination, Driver, Mode (string such as read-only flags), RW (boolean), Propagation (string). Name, Driver and Propagation appear from 1.23 on.',
    '| POST /containers/create |',
    '201 {Id, Warnings}',
  ],
  since: '1.18',
  until: '1.24',
  tags: ['version', 'state'],
  covers: ['1:POST /containers/create:body:HostConfig.Binds', '1:version-rule:1.25:binds-bare-path-removed'],
}, async (context) => {
  const destination = '/shipshape-data';
  // Removing the container with v=1 (createContainer's cleanup) removes the new volume with it.
  const res = await createContainer(context, { Image: context.session.fixtureImage, Cmd: ['true'], HostConfig: { Binds: [destination] } });
  context.expect(res.status, `create status for Binds ["${destination}"]: ${res.text().trim()}`).toBe(201);
  const mounts = mountsIn(await inspectContainer<InspectedMounts>(context, res.json<{ Id: string }>().Id));
  const mount = mounts.find((entry) => entry.Destination === destination);
  const what = `the mount at ${destination} in inspect's mounts ${JSON.stringify(mounts)}`;
  // Where the new volume lives (Source) the mount object does not say: only that it is mounted there, writable.
  context.expect(mount && { RW: mount.RW }, what).toEqual({ RW: true });
  if (atLeast(context.version, '1.23')) context.expect(mount?.Name, `the volume name of ${what}`).toMatch(/./);
});

/** Asserts that the list item of a container created on the bridge network names that network, alone, in NetworkSettings.Networks. */
async function expectListedOnBridge(context: CheckContext): Promise<void> {
  const id = await createdContainer(context, { HostConfig: { NetworkMode: 'bridge' } });
  const res = await context.engine.get('/containers/json', { query: { all: '1' } });
  context.expect(res.status, 'GET /containers/json?all=1 status').toBe(200);
  const item = res.json<{ Id: string; NetworkSettings?: { Networks?: Record<string, unknown> } }[]>().find((summary) => summary.Id === id);
  context.expect(item, 'the created container in the list with all=1').toBeDefined();
  const networks = Object.keys(item?.NetworkSettings?.Networks ?? {});
  context.expect(networks, `NetworkSettings.Networks of the list item ${JSON.stringify(item)}`).toEqual(['bridge']);
}

check('containers.list.networks', {
  title: 'from 1.23 a list item carries NetworkSettings.Networks, naming the network the container is on',
  spec: '1 §2, §4.1, §9.4',
  quote: [
    '| NetworkSettings | object | [1.23+] holds Networks, a map from network name to endpoint settings |',
    'A value marked [1.21+] and so on is present only from that API version on.',
    '| NetworkMode | string | bridge, host, none, `container:<name or id>`; any other value is the name of a custom network |',
    '| GET /containers/json | all (boolean, default false: only running are listed)',
    '1.22 update endpoint, container network list',
  ],
  since: '1.23',
  tags: ['version', 'schema'],
  covers: ['1:GET /containers/json', '1:version-rule:1.22:container-network-list'],
}, async (context) => {
  await expectListedOnBridge(context);
});

check('containers.list.networks-at-1-22', {
  title: 'at 1.22 already a list item carries NetworkSettings.Networks, naming the network the container is on',
  spec: '1 §2.1, §9.4',
  // §9.4 names a "container network list" at 1.22, while §2.1 marks the list item's NetworkSettings [1.23+].
  level: 'docker',
  seen: SEEN,
  since: '1.22',
  until: '1.22',
  tags: ['version', 'schema'],
}, async (context) => {
  await expectListedOnBridge(context);
});
