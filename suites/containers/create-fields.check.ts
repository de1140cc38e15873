/**
 * Creation-body fields of spec/1 §2.3 with no version rule: a create accepts each (201) and inspect
 * Config shows the Config fields back (§2.2 lists the Config fields inspect carries). What inspect's
 * HostConfig holds §2.2 does not say ("HostConfig (object)"): that it shows the HostConfig fields back
 * is dockerd's, pinned by the docker-level `-in-inspect` twins. The containers never start, so host
 * paths and devices are only named, not used. Links and VolumesFrom name another container, which
 * each check creates first.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { createdContainer } from '../container-steps.ts';
import { createAndInspect, roundTripChecks, type RoundTrip } from './create-round-trip.ts';

const CREATE = '1:POST /containers/create:body:';
const SEEN = 'dockerd 20.10.24';

const ROUND_TRIPS: RoundTrip[] = [
  {
    id: 'domainname-user',
    since: '1.18',
    quote: ['Config object in the inspect response carries the creation Config fields in 2.3', '| Domainname | string | domain name |', '| User | string | user inside the container |'],
    title: 'Domainname and User are accepted and shown back in inspect Config',
    covers: [`${CREATE}Domainname`, `${CREATE}User`],
    config: { Domainname: 'example.org', User: '1000:1000' },
  },
  {
    id: 'attach-output',
    since: '1.18',
    quote: ['Config object in the inspect response carries the creation Config fields in 2.3', '| AttachStdin, AttachStdout, AttachStderr | boolean | attach to the stream |'],
    title: 'AttachStdout and AttachStderr are accepted and shown back in inspect Config',
    covers: [`${CREATE}AttachStdout`, `${CREATE}AttachStderr`],
    config: { AttachStdout: true, AttachStderr: true },
  },
  {
    id: 'network-disabled',
    since: '1.18',
    quote: ['Config object in the inspect response carries the creation Config fields in 2.3', '| NetworkDisabled | boolean | true disables networking |'],
    title: 'NetworkDisabled true is accepted and shown back in inspect Config',
    covers: [`${CREATE}NetworkDisabled`],
    config: { NetworkDisabled: true },
  },
  {
    id: 'mac-address',
    since: '1.18',
    quote: ['Config object in the inspect response carries the creation Config fields in 2.3', '| MacAddress | string |'],
    title: 'MacAddress is accepted and shown back in inspect Config',
    covers: [`${CREATE}MacAddress`],
    // A locally administered address, which no vendor owns.
    config: { MacAddress: '02:42:ac:11:ff:01' },
  },
  {
    id: 'exposed-ports',
    since: '1.18',
    quote: ['Config object in the inspect response carries the creation Config fields in 2.3', '| ExposedPorts | object | key `<port>/<tcp or udp>` mapped to an empty object |', '| PublishAllPorts | boolean | random host port for every exposed port |'],
    title: 'ExposedPorts {"<port>/<protocol>": {}} and HostConfig.PublishAllPorts are accepted, and inspect Config shows ExposedPorts back',
    covers: [`${CREATE}ExposedPorts`, `${CREATE}HostConfig.PublishAllPorts`],
    config: { ExposedPorts: { '8080/tcp': {}, '5353/udp': {} } },
    hostConfig: { PublishAllPorts: true },
  },
  {
    id: 'cpu-shares-cpuset',
    since: '1.18',
    quote: ['| CpuShares | integer | relative CPU weight |', '| CpusetCpus | string | cgroups cpuset CPUs, e.g. list or range |', '| CpusetMems | string | memory nodes allowed, only effective on NUMA systems |'],
    title: 'HostConfig.CpuShares, CpusetCpus and CpusetMems are accepted',
    covers: [`${CREATE}HostConfig.CpuShares`, `${CREATE}HostConfig.CpusetCpus`, `${CREATE}HostConfig.CpusetMems`],
    // CPU 0 and memory node 0 exist on every host.
    hostConfig: { CpuShares: 512, CpusetCpus: '0', CpusetMems: '0' },
  },
  {
    id: 'blkio-weight-device',
    since: '1.18',
    quote: ['| BlkioWeightDevice | array of {Path, Weight} |'],
    title: 'HostConfig.BlkioWeightDevice [{Path, Weight}] is accepted',
    covers: [`${CREATE}HostConfig.BlkioWeightDevice`],
    // The device is resolved when a container starts; this one never does.
    hostConfig: { BlkioWeightDevice: [{ Path: '/dev/sda', Weight: 300 }] },
    // A per-device weight needs the host's block I/O weight, as BlkioWeight does.
    requires: ['blkio-weight'],
  },
  {
    id: 'oom-kill-disable',
    since: '1.18',
    quote: ['| OomKillDisable | boolean |', '| Memory | integer | limit in bytes |'],
    title: 'HostConfig.OomKillDisable is accepted',
    covers: [`${CREATE}HostConfig.OomKillDisable`],
    hostConfig: { OomKillDisable: true, Memory: 64 * 1024 * 1024 },
  },
  {
    id: 'privileged',
    since: '1.18',
    quote: ['| Privileged | boolean |'],
    title: 'HostConfig.Privileged is accepted',
    covers: [`${CREATE}HostConfig.Privileged`],
    hostConfig: { Privileged: true },
  },
  {
    id: 'dns-extra-hosts',
    since: '1.18',
    quote: ['| Dns, DnsOptions, DnsSearch | array of string |', '| ExtraHosts | array of string | each hostname:IP |'],
    title: 'HostConfig.Dns, DnsSearch and ExtraHosts are accepted',
    covers: [`${CREATE}HostConfig.Dns`, `${CREATE}HostConfig.DnsSearch`, `${CREATE}HostConfig.ExtraHosts`],
    hostConfig: { Dns: ['10.9.8.7'], DnsSearch: ['example.org'], ExtraHosts: ['shipshape.example.org:10.9.8.6'] },
  },
  {
    id: 'capabilities',
    since: '1.18',
    quote: ['| CapAdd, CapDrop | array of string | kernel capabilities |'],
    title: 'HostConfig.CapAdd and CapDrop are accepted',
    covers: [`${CREATE}HostConfig.CapAdd`, `${CREATE}HostConfig.CapDrop`],
    hostConfig: { CapAdd: ['NET_ADMIN'], CapDrop: ['MKNOD'] },
  },
  {
    id: 'devices',
    since: '1.18',
    quote: ['| Devices | array of object | {PathOnHost, PathInContainer, CgroupPermissions} |'],
    title: 'HostConfig.Devices [{PathOnHost, PathInContainer, CgroupPermissions}] is accepted',
    covers: [`${CREATE}HostConfig.Devices`],
    hostConfig: { Devices: [{ PathOnHost: '/dev/null', PathInContainer: '/dev/shipshape-null', CgroupPermissions: 'rwm' }] },
  },
  {
    id: 'security-opt',
    since: '1.18',
    quote: ['| SecurityOpt | array of string | labels for MLS systems |'],
    title: 'HostConfig.SecurityOpt holding an MLS label is accepted',
    covers: [`${CREATE}HostConfig.SecurityOpt`],
    // An MLS label (§2.3: "labels for MLS systems"), not dockerd's no-new-privileges.
    hostConfig: { SecurityOpt: ['label=level:s0:c100,c200'] },
  },
];

roundTripChecks(ROUND_TRIPS, { spec: '1 §2.2, §2.3, §4.1', quote: ['| POST /containers/create |', '201 {Id, Warnings}'], tags: ['state'] });

/** A container of the fixture image under a name of the run, never started; returns its name. */
async function namedContainer(context: CheckContext, config: Record<string, unknown> = {}): Promise<string> {
  const name = context.make.uniqueName('peer');
  await createdContainer(context, config, name);
  return name;
}

check('containers.create.links', {
  title: 'HostConfig.Links ["<container>:<alias>"] naming a container is accepted',
  spec: '1 §2.3, §4.1',
  quote: ['| Links | array of string | each container_name:alias |', '| POST /containers/create |', '201 {Id, Warnings}'],
  since: '1.18',
  tags: ['state'],
  covers: [`${CREATE}HostConfig.Links`],
}, async (context) => {
  const child = await namedContainer(context);
  await createAndInspect(context, { HostConfig: { Links: [`${child}:shipalias`] } });
});

check('containers.create.links-in-inspect', {
  title: 'inspect HostConfig.Links shows the link a create gave (as given, or as /<container>:/<linking container>/<alias>)',
  spec: '1 §2.3',
  level: 'docker',
  seen: SEEN,
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const child = await namedContainer(context);
  const { HostConfig } = await createAndInspect(context, { HostConfig: { Links: [`${child}:shipalias`] } });
  const links = HostConfig.Links as unknown;
  const same = new RegExp(`^/?${child}:(/[^/]+/)?shipalias$`);
  const ok = Array.isArray(links) && links.length === 1 && same.test(String(links[0]));
  context.expect(ok, `inspect HostConfig.Links for Links ["${child}:shipalias"]: ${JSON.stringify(links)}`).toBe(true);
});

check('containers.create.volumes-from', {
  title: 'HostConfig.VolumesFrom ["<container>:ro"] naming a container with a volume is accepted',
  spec: '1 §2.3, §4.1',
  quote: [
    '| VolumesFrom | array of string | each `<container name>[:ro or rw]` |',
    '| Volumes | object | mount-point path inside the container mapped to an empty object |',
    '| POST /containers/create |',
    '201 {Id, Warnings}',
  ],
  since: '1.18',
  tags: ['state'],
  covers: [`${CREATE}HostConfig.VolumesFrom`],
}, async (context) => {
  const source = await namedContainer(context, { Volumes: { '/shipshape-shared': {} } });
  await createAndInspect(context, { HostConfig: { VolumesFrom: [`${source}:ro`] } });
});

check('containers.create.volumes-from-in-inspect', {
  title: 'inspect HostConfig.VolumesFrom shows ["<container>:ro"] back as the create gave it',
  spec: '1 §2.3',
  level: 'docker',
  seen: SEEN,
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const source = await namedContainer(context, { Volumes: { '/shipshape-shared': {} } });
  const { HostConfig } = await createAndInspect(context, { HostConfig: { VolumesFrom: [`${source}:ro`] } });
  context.expect(HostConfig.VolumesFrom, `inspect HostConfig.VolumesFrom for VolumesFrom ["${source}:ro"]`).toEqual([`${source}:ro`]);
});
