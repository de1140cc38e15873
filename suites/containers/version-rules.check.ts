/**
 * The create-body fields that came with an API version (spec/1 §9.4, §2.3): from that version a
 * create accepts the field and inspect shows it back, in HostConfig or Config. Creates and inspects go
 * at the version under test. Before a field's version the spec states no rule (a client of that
 * version does not send the field), so the checks start at it: dockerd keeps every one of these
 * fields at every version, AutoRemove aside, which it resets before 1.25.
 * The list-item fields of §9.4 (ImageID, State, Mounts) are containers.list.schema's.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { atLeast } from '../../harness/versions.ts';
import { createContainer, createdContainer, exitedContainer, inspectContainer, loggedStdout, mountsIn, type InspectedMounts } from '../container-steps.ts';
import { createAndInspect, roundTripChecks, type RoundTrip } from './create-round-trip.ts';

const MIB = 1024 * 1024;
/** The engine's /dev/shm size when a create gives none (spec/1 §8). */
const DEFAULT_SHM_SIZE = 64 * MIB;

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
    title: 'HostConfig.Ulimits [{Name, Soft, Hard}] is accepted and shown back in inspect HostConfig',
    covers: ['1:POST /containers/create:body:HostConfig.Ulimits', '1:version-rule:1.18:ulimits'],
    hostConfig: { Ulimits: [{ Name: 'nofile', Soft: 1024, Hard: 2048 }] },
  },
  {
    id: 'cgroup-parent',
    since: '1.18',
    title: 'HostConfig.CgroupParent is accepted and shown back in inspect HostConfig',
    covers: ['1:POST /containers/create:body:HostConfig.CgroupParent', '1:version-rule:1.18:cgroup-parent'],
    hostConfig: { CgroupParent: '/shipshape-parent' },
  },
  {
    id: 'cpu-period-quota',
    since: '1.19',
    title: 'HostConfig.CpuPeriod and CpuQuota are accepted from 1.19 and shown back in inspect HostConfig',
    covers: ['1:POST /containers/create:body:HostConfig.CpuPeriod', '1:POST /containers/create:body:HostConfig.CpuQuota', '1:version-rule:1.19:cpu-period-quota'],
    hostConfig: { CpuPeriod: 100_000, CpuQuota: 50_000 },
  },
  {
    id: 'group-add',
    since: '1.20',
    title: 'HostConfig.GroupAdd is accepted from 1.20 and shown back in inspect HostConfig',
    covers: ['1:POST /containers/create:body:HostConfig.GroupAdd', '1:version-rule:1.20:group-add'],
    hostConfig: { GroupAdd: ['1234'] },
  },
  {
    id: 'stop-signal',
    since: '1.21',
    title: 'StopSignal is accepted from 1.21 and shown back in inspect Config',
    covers: ['1:POST /containers/create:body:StopSignal', '1:version-rule:1.21:stop-signal'],
    config: { StopSignal: 'SIGUSR1' },
  },
  {
    id: 'oom-score-adj',
    since: '1.21',
    title: 'HostConfig.OomScoreAdj is accepted from 1.21 and shown back in inspect HostConfig',
    covers: ['1:POST /containers/create:body:HostConfig.OomScoreAdj', '1:version-rule:1.21:oom-score-adj'],
    hostConfig: { OomScoreAdj: 300 },
  },
  {
    id: 'dns-options',
    since: '1.21',
    title: 'HostConfig.DnsOptions is accepted from 1.21 and shown back in inspect HostConfig',
    covers: ['1:POST /containers/create:body:HostConfig.DnsOptions', '1:version-rule:1.21:dns-options'],
    hostConfig: { DnsOptions: ['ndots:2'] },
  },
  {
    id: 'volume-driver',
    since: '1.21',
    title: 'HostConfig.VolumeDriver is accepted from 1.21 and shown back in inspect HostConfig',
    covers: ['1:POST /containers/create:body:HostConfig.VolumeDriver', '1:version-rule:1.21:volume-driver'],
    hostConfig: { VolumeDriver: 'local' },
  },
  {
    id: 'memory-reservation',
    since: '1.21',
    title: 'HostConfig.MemoryReservation (a soft limit) is accepted from 1.21 and shown back in inspect HostConfig',
    covers: ['1:POST /containers/create:body:HostConfig.MemoryReservation', '1:version-rule:1.21:memory-reservation'],
    hostConfig: { MemoryReservation: 32 * MIB },
  },
  {
    id: 'log-driver-awslogs',
    since: '1.21',
    title: 'HostConfig.LogConfig of Type awslogs is accepted from 1.21 and shown back in inspect HostConfig',
    covers: ['1:POST /containers/create:body:HostConfig.LogConfig', '1:version-rule:1.21:log-driver-awslogs'],
    // The group is required at create; the driver reaches AWS only when the container starts, and these never start.
    hostConfig: { LogConfig: { Type: 'awslogs', Config: { 'awslogs-group': 'shipshape', 'awslogs-region': 'eu-west-1' } } },
  },
  {
    id: 'blkio-device-rates',
    since: '1.22',
    title: 'HostConfig.BlkioDeviceReadBps, WriteBps, ReadIOps and WriteIOps [{Path, Rate}] are accepted from 1.22 and shown back in inspect HostConfig',
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
    title: 'HostConfig.StorageOpt is accepted from 1.24 and shown back in inspect HostConfig',
    covers: ['1:POST /containers/create:body:HostConfig.StorageOpt', '1:version-rule:1.24:storage-opt'],
    // Which options a storage driver takes, and on what backing filesystem, is the host's matter.
    hostConfig: { StorageOpt: { size: '1G' } },
    requires: ['storage-opt'],
  },
  {
    id: 'sysctls',
    since: '1.24',
    title: 'HostConfig.Sysctls is accepted from 1.24 and shown back in inspect HostConfig',
    covers: ['1:POST /containers/create:body:HostConfig.Sysctls', '1:version-rule:1.24:sysctls'],
    hostConfig: { Sysctls: { 'net.ipv4.ip_forward': '1' } },
  },
  {
    id: 'userns-mode',
    since: '1.25',
    title: 'HostConfig.UsernsMode host is accepted at 1.25 and shown back in inspect HostConfig',
    covers: ['1:POST /containers/create:body:HostConfig.UsernsMode', '1:version-rule:1.25:userns-mode'],
    hostConfig: { UsernsMode: 'host' },
  },
  {
    id: 'auto-remove-field',
    since: '1.25',
    title: 'HostConfig.AutoRemove is accepted at 1.25 and shown back in inspect HostConfig',
    covers: ['1:POST /containers/create:body:HostConfig.AutoRemove', '1:version-rule:1.25:auto-remove'],
    hostConfig: { AutoRemove: true },
  },
];

roundTripChecks(ROUND_TRIPS, { spec: '1 §9.4', tags: ['version'] });

check('containers.create.stop-signal-number', {
  title: 'StopSignal given as an unsigned integer is accepted from 1.21 and kept in inspect Config.StopSignal',
  spec: '1 §2.3',
  since: '1.21',
  tags: ['version'],
  covers: ['1:POST /containers/create:body:StopSignal'],
}, async (context) => {
  // How inspect spells a signal given as a number (2, "2", "SIGINT") is not shown: only that it is kept.
  const { Config } = await createAndInspect(context, { StopSignal: 2 });
  const kept = Config.StopSignal === 2 || (typeof Config.StopSignal === 'string' && Config.StopSignal !== '');
  context.expect(kept, `inspect Config.StopSignal for StopSignal 2: ${JSON.stringify(Config.StopSignal)}`).toBe(true);
});

check('containers.create.pids-limit', {
  title: 'HostConfig.PidsLimit is accepted from 1.23 and shown back in inspect HostConfig; -1 (unlimited) is accepted',
  spec: '1 §9.4',
  since: '1.23',
  tags: ['version'],
  covers: ['1:POST /containers/create:body:HostConfig.PidsLimit', '1:version-rule:1.23:pids-limit'],
}, async (context) => {
  const { HostConfig } = await createAndInspect(context, { HostConfig: { PidsLimit: 64 } });
  context.expect(HostConfig.PidsLimit, 'inspect HostConfig.PidsLimit for PidsLimit 64').toBe(64);
  // How inspect shows "unlimited" (-1, 0, null) is not shown: only that -1 is a valid limit.
  await createAndInspect(context, { HostConfig: { PidsLimit: -1 } });
});

check('containers.create.pid-mode-container', {
  title: 'HostConfig.PidMode container:<id> is accepted from 1.24 and shown back in inspect HostConfig',
  spec: '1 §9.4',
  since: '1.24',
  tags: ['version'],
  covers: ['1:POST /containers/create:body:HostConfig.PidMode', '1:version-rule:1.24:pid-mode-container'],
}, async (context) => {
  const pidMode = `container:${await context.make.container({ Image: context.session.fixtureImage, Cmd: ['true'] })}`;
  const { HostConfig } = await createAndInspect(context, { HostConfig: { PidMode: pidMode } });
  context.expect(HostConfig.PidMode, `inspect HostConfig.PidMode for PidMode ${pidMode}`).toBe(pidMode);
});

check('containers.create.shm-size', {
  title: 'HostConfig.ShmSize is accepted at 1.25 and shown back in inspect HostConfig; without it inspect shows the 64 MB default',
  spec: '1 §9.4',
  since: '1.25',
  tags: ['version'],
  covers: ['1:POST /containers/create:body:HostConfig.ShmSize', '1:version-rule:1.25:shm-size'],
}, async (context) => {
  const sizes = {
    given: (await createAndInspect(context, { HostConfig: { ShmSize: 32 * MIB } })).HostConfig.ShmSize,
    unset: (await createAndInspect(context, {})).HostConfig.ShmSize,
  };
  context.expect(sizes, `inspect HostConfig.ShmSize for ShmSize 32 MiB and for none: ${JSON.stringify(sizes)}`).toEqual({ given: 32 * MIB, unset: DEFAULT_SHM_SIZE });
});

check('containers.create.networking-config', {
  title: 'NetworkingConfig {EndpointsConfig: {<network>: {IPAMConfig, Links, Aliases}}} is accepted at 1.25; the container is on that network',
  spec: '1 §9.4',
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
  spec: '1 §2.3',
  since: '1.23',
  tags: ['version', 'state'],
  covers: ['1:POST /containers/create:body:Hostname', '1:POST /containers/create:body:Domainname', '1:version-rule:1.23:hostname-and-domainname'],
}, async (context) => {
  const id = await exitedContainer(context, { Cmd: ['hostname'], Hostname: 'shiphost', Domainname: 'example.org', Tty: false });
  context.expect(await loggedStdout(context, id), 'what `hostname` printed in a container of Hostname shiphost, Domainname example.org').toBe('shiphost\n');
});

/** The status of HEAD archive of `path` in the container: whether the path exists there. */
async function statStatus({ engine }: CheckContext, id: string, path: string): Promise<number> {
  return (await engine.head(`/containers/${id}/archive`, { query: { path } })).status;
}

check('containers.create.volume-nocopy', {
  title: 'from 1.23 a named volume bound with mode nocopy stays empty, where one bound without it gets what the image holds there',
  spec: '1 §9.4',
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
  spec: '1 §2.3',
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
  context.expect(mount && { RW: mount.RW, hasSource: mount.Source !== '' }, what).toEqual({ RW: true, hasSource: true });
  if (atLeast(context.version, '1.23')) context.expect(mount?.Name, `the volume name of ${what}`).toMatch(/./);
});

check('containers.list.networks', {
  title: 'from 1.22 a list item carries NetworkSettings.Networks, naming the network the container is on',
  spec: '1 §9.4',
  since: '1.22',
  tags: ['version', 'schema'],
  covers: ['1:GET /containers/json', '1:version-rule:1.22:container-network-list'],
}, async (context) => {
  const id = await createdContainer(context, { HostConfig: { NetworkMode: 'bridge' } });
  const res = await context.engine.get('/containers/json', { query: { all: '1', filters: JSON.stringify({ id: [id] }) } });
  context.expect(res.status, 'GET /containers/json status').toBe(200);
  const item = res.json<{ Id: string; NetworkSettings?: { Networks?: Record<string, unknown> } }[]>().find((summary) => summary.Id === id);
  context.expect(Object.keys(item?.NetworkSettings?.Networks ?? {}), `NetworkSettings.Networks of the list item ${JSON.stringify(item)}`).toEqual(['bridge']);
});
