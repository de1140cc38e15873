/**
 * Creation-body fields of spec/1 §2.3 with no version rule: a create accepts each and inspect shows it
 * back, in Config (§2.2 lists the Config fields inspect carries) or HostConfig. The containers never
 * start, so host paths and devices are only named, not used. Links and VolumesFrom name another
 * container, which each check creates first.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { createdContainer } from '../container-steps.ts';
import { createAndInspect, roundTripChecks, type RoundTrip } from './create-round-trip.ts';

const CREATE = '1:POST /containers/create:body:';

const ROUND_TRIPS: RoundTrip[] = [
  {
    id: 'domainname-user',
    since: '1.18',
    title: 'Domainname and User are accepted and shown back in inspect Config',
    covers: [`${CREATE}Domainname`, `${CREATE}User`],
    config: { Domainname: 'example.org', User: '1000:1000' },
  },
  {
    id: 'attach-output',
    since: '1.18',
    title: 'AttachStdout and AttachStderr are accepted and shown back in inspect Config',
    covers: [`${CREATE}AttachStdout`, `${CREATE}AttachStderr`],
    config: { AttachStdout: true, AttachStderr: true },
  },
  {
    id: 'network-disabled',
    since: '1.18',
    title: 'NetworkDisabled true is accepted and shown back in inspect Config',
    covers: [`${CREATE}NetworkDisabled`],
    config: { NetworkDisabled: true },
  },
  {
    id: 'mac-address',
    since: '1.18',
    title: 'MacAddress is accepted and shown back in inspect Config',
    covers: [`${CREATE}MacAddress`],
    // A locally administered address, which no vendor owns.
    config: { MacAddress: '02:42:ac:11:ff:01' },
  },
  {
    id: 'exposed-ports',
    since: '1.18',
    title: 'ExposedPorts {"<port>/<protocol>": {}} and HostConfig.PublishAllPorts are accepted and shown back in inspect',
    covers: [`${CREATE}ExposedPorts`, `${CREATE}HostConfig.PublishAllPorts`],
    config: { ExposedPorts: { '8080/tcp': {}, '5353/udp': {} } },
    hostConfig: { PublishAllPorts: true },
  },
  {
    id: 'cpu-shares-cpuset',
    since: '1.18',
    title: 'HostConfig.CpuShares, CpusetCpus and CpusetMems are accepted and shown back in inspect HostConfig',
    covers: [`${CREATE}HostConfig.CpuShares`, `${CREATE}HostConfig.CpusetCpus`, `${CREATE}HostConfig.CpusetMems`],
    // CPU 0 and memory node 0 exist on every host.
    hostConfig: { CpuShares: 512, CpusetCpus: '0', CpusetMems: '0' },
  },
  {
    id: 'blkio-weight-device',
    since: '1.18',
    title: 'HostConfig.BlkioWeightDevice [{Path, Weight}] is accepted and shown back in inspect HostConfig',
    covers: [`${CREATE}HostConfig.BlkioWeightDevice`],
    // The device is resolved when a container starts; this one never does.
    hostConfig: { BlkioWeightDevice: [{ Path: '/dev/sda', Weight: 300 }] },
    // A per-device weight needs the host's block I/O weight, as BlkioWeight does.
    requires: ['blkio-weight'],
  },
  {
    id: 'oom-kill-disable',
    since: '1.18',
    title: 'HostConfig.OomKillDisable is accepted and shown back in inspect HostConfig',
    covers: [`${CREATE}HostConfig.OomKillDisable`],
    hostConfig: { OomKillDisable: true, Memory: 64 * 1024 * 1024 },
  },
  {
    id: 'privileged',
    since: '1.18',
    title: 'HostConfig.Privileged is accepted and shown back in inspect HostConfig',
    covers: [`${CREATE}HostConfig.Privileged`],
    hostConfig: { Privileged: true },
  },
  {
    id: 'dns-extra-hosts',
    since: '1.18',
    title: 'HostConfig.Dns, DnsSearch and ExtraHosts are accepted and shown back in inspect HostConfig',
    covers: [`${CREATE}HostConfig.Dns`, `${CREATE}HostConfig.DnsSearch`, `${CREATE}HostConfig.ExtraHosts`],
    hostConfig: { Dns: ['10.9.8.7'], DnsSearch: ['example.org'], ExtraHosts: ['shipshape.example.org:10.9.8.6'] },
  },
  {
    id: 'capabilities',
    since: '1.18',
    title: 'HostConfig.CapAdd and CapDrop are accepted and shown back in inspect HostConfig',
    covers: [`${CREATE}HostConfig.CapAdd`, `${CREATE}HostConfig.CapDrop`],
    hostConfig: { CapAdd: ['NET_ADMIN'], CapDrop: ['MKNOD'] },
  },
  {
    id: 'devices',
    since: '1.18',
    title: 'HostConfig.Devices [{PathOnHost, PathInContainer, CgroupPermissions}] is accepted and shown back in inspect HostConfig',
    covers: [`${CREATE}HostConfig.Devices`],
    hostConfig: { Devices: [{ PathOnHost: '/dev/null', PathInContainer: '/dev/shipshape-null', CgroupPermissions: 'rwm' }] },
  },
  {
    id: 'security-opt',
    since: '1.18',
    title: 'HostConfig.SecurityOpt is accepted and shown back in inspect HostConfig',
    covers: [`${CREATE}HostConfig.SecurityOpt`],
    hostConfig: { SecurityOpt: ['no-new-privileges'] },
  },
];

roundTripChecks(ROUND_TRIPS, { spec: '1 §2.3', tags: ['state'] });

/** A container of the fixture image under a name of the run, never started; returns its name. */
async function namedContainer(context: CheckContext, config: Record<string, unknown> = {}): Promise<string> {
  const name = context.make.uniqueName('peer');
  await createdContainer(context, config, name);
  return name;
}

check('containers.create.links', {
  title: 'HostConfig.Links ["<container>:<alias>"] is accepted and inspect HostConfig.Links shows that link',
  spec: '1 §2.3',
  since: '1.18',
  tags: ['state'],
  covers: [`${CREATE}HostConfig.Links`],
}, async (context) => {
  const child = await namedContainer(context);
  const { HostConfig } = await createAndInspect(context, { HostConfig: { Links: [`${child}:shipalias`] } });
  // How inspect spells a link is not shown: as given, or as dockerd's /<container>:/<linking container>/<alias>.
  const links = HostConfig.Links as unknown;
  const same = new RegExp(`^/?${child}:(/[^/]+/)?shipalias$`);
  const ok = Array.isArray(links) && links.length === 1 && same.test(String(links[0]));
  context.expect(ok, `inspect HostConfig.Links for Links ["${child}:shipalias"]: ${JSON.stringify(links)}`).toBe(true);
});

check('containers.create.volumes-from', {
  title: 'HostConfig.VolumesFrom ["<container>:ro"] is accepted and shown back in inspect HostConfig',
  spec: '1 §2.3',
  since: '1.18',
  tags: ['state'],
  covers: [`${CREATE}HostConfig.VolumesFrom`],
}, async (context) => {
  const source = await namedContainer(context, { Volumes: { '/shipshape-shared': {} } });
  const { HostConfig } = await createAndInspect(context, { HostConfig: { VolumesFrom: [`${source}:ro`] } });
  context.expect(HostConfig.VolumesFrom, `inspect HostConfig.VolumesFrom for VolumesFrom ["${source}:ro"]`).toEqual([`${source}:ro`]);
});
