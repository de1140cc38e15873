/**
 * The create body by API version: the fields a version added are read from it on and dropped before
 * it (type errors included, as for any unknown property); the fields' JSON types and ranges in Go's
 * words (dockerd 20.10's, seen with curl); names matched without regard to case; NetworkingConfig.
 */
import { describe, expect, test } from 'vitest';
import { parseCreateBody } from '../../reference/engine/http/create-container-body.ts';
import { parseHostConfig } from '../../reference/engine/http/host-config-body.ts';
import { PERSONALITIES } from '../../reference/engine/http/personality.ts';
import { InvalidParameterError } from '../../reference/engine/model/common/errors.ts';

const dockerdAt = (version: string) => ({ version, personality: PERSONALITIES.dockerd });

/** The error message of a parse, or 'ok'. */
function verdict(parse: () => unknown): string {
  try {
    parse();
    return 'ok';
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidParameterError);
    return (error as Error).message;
  }
}

describe('HostConfig fields by version', () => {
  test.each([
    ['1.19', { CpuPeriod: 100_000, CpuQuota: 50_000 }],
    ['1.20', { GroupAdd: ['audio'] }],
    ['1.21', { MemoryReservation: 1024, KernelMemory: 4_194_304, OomScoreAdj: 300, DnsOptions: ['ndots:2'], VolumeDriver: 'local' }],
    ['1.22', { BlkioDeviceReadBps: [{ Path: '/dev/sda', Rate: 1 }], BlkioDeviceWriteIOps: [{ Path: '/dev/sda', Rate: 2 }] }],
    ['1.23', { PidsLimit: 64 }],
    ['1.24', { Sysctls: { 'net.ipv4.ip_forward': '1' }, StorageOpt: { size: '1G' } }],
    ['1.25', { AutoRemove: true, UsernsMode: 'host', ShmSize: 1024 }],
  ])('from %s: %j is kept, and dropped one version before', (since, fields) => {
    const older = `1.${Number(since.split('.')[1]) - 1}`;
    expect(parseHostConfig(fields, dockerdAt(since))).toEqual(fields);
    expect(parseHostConfig({ ...fields, Privileged: true }, dockerdAt(older))).toEqual({ Privileged: true });
  });

  test('a field of a later version is not type-checked before it: it is unknown there', () => {
    expect(verdict(() => parseHostConfig({ ShmSize: 'big' }, dockerdAt('1.24')))).toBe('ok');
    expect(verdict(() => parseHostConfig({ ShmSize: 'big' }, dockerdAt('1.25')))).toBe('json: cannot unmarshal string into Go struct field HostConfig.ShmSize of type int64');
  });

  test('Ulimits and CgroupParent are read at every version', () => {
    const fields = { Ulimits: [{ Name: 'nofile', Soft: 1, Hard: 2 }], CgroupParent: '/parent' };
    expect(parseHostConfig(fields, dockerdAt('1.18'))).toEqual(fields);
  });
});

describe('HostConfig field types', () => {
  test.each([
    [{ Ulimits: 'nofile=1' }, 'json: cannot unmarshal string into Go struct field HostConfig.Ulimits of type []*units.Ulimit'],
    [{ Ulimits: [{ Name: 'nofile', Soft: '1' }] }, 'json: cannot unmarshal string into Go struct field Ulimit.Ulimits.Soft of type int64'],
    [{ Ulimits: ['nofile'] }, 'json: cannot unmarshal string into Go struct field HostConfig.Ulimits of type units.Ulimit'],
    [{ BlkioDeviceReadBps: [{ Path: '/dev/sda', Rate: -1 }] }, 'json: cannot unmarshal number -1 into Go struct field ThrottleDevice.BlkioDeviceReadBps.Rate of type uint64'],
    [{ BlkioWeightDevice: [{ Path: 7, Weight: 10 }] }, 'json: cannot unmarshal number into Go struct field WeightDevice.BlkioWeightDevice.Path of type string'],
    [{ GroupAdd: [1234] }, 'json: cannot unmarshal number into Go struct field HostConfig.GroupAdd of type string'],
    [{ Sysctls: { 'kernel.shmmax': 1 } }, 'json: cannot unmarshal number into Go struct field HostConfig.Sysctls of type string'],
    [{ PidMode: ['host'] }, 'json: cannot unmarshal array into Go struct field HostConfig.PidMode of type string'],
    [{ Privileged: 'yes' }, 'json: cannot unmarshal string into Go struct field HostConfig.Privileged of type bool'],
    [{ CpuShares: 1e308 }, 'json: cannot unmarshal number 1e308 into Go struct field HostConfig.CpuShares of type int64'],
    [{ CpuShares: 1.5 }, 'json: cannot unmarshal number 1.5 into Go struct field HostConfig.CpuShares of type int64'],
    [{ Memory: 2 ** 63 }, 'json: cannot unmarshal number 9223372036854775808 into Go struct field HostConfig.Memory of type int64'],
    [{ BlkioWeight: 70_000 }, 'json: cannot unmarshal number 70000 into Go struct field HostConfig.BlkioWeight of type uint16'],
    [{ PortBindings: { '80/tcp': [{ HostPort: 8080 }] } }, 'json: cannot unmarshal number into Go struct field PortBinding.PortBindings.HostPort of type string'],
    [{ PortBindings: { '80/tcp': { HostPort: '8080' } } }, 'json: cannot unmarshal object into Go struct field HostConfig.PortBindings of type []nat.PortBinding'],
    [{ LxcConf: 'x' }, 'json: cannot unmarshal string into Go struct field HostConfig.LxcConf of type runconfig.LxcConfig'],
    [{ Ulimits: [{ Name: 'nofile', Soft: 1, Hard: 2 }], BlkioDeviceWriteBps: [{ Path: '/dev/sda', Rate: 0 }], PidMode: 'host', DnsOptions: [] }, 'ok'],
  ])('%j: %s', (fields, expected) => {
    expect(verdict(() => parseHostConfig(fields, dockerdAt('1.25')))).toBe(expected);
  });
});

describe('NetworkingConfig', () => {
  const body = (networkingConfig: unknown) => ({ Image: 'busybox', NetworkingConfig: networkingConfig });

  test.each([
    [{ EndpointsConfig: { bridge: { IPAMConfig: { IPv4Address: '172.17.0.9' }, Links: [], Aliases: ['web'] } } }, 'ok'],
    [{ EndpointsConfig: { bridge: null } }, 'ok'],
    [{ EndpointsConfig: 'bridge' }, 'json: cannot unmarshal string into Go struct field NetworkingConfig.NetworkingConfig.EndpointsConfig of type map[string]*network.EndpointSettings'],
    [{ EndpointsConfig: { bridge: { Aliases: 'web' } } }, 'json: cannot unmarshal string into Go struct field EndpointSettings.NetworkingConfig.EndpointsConfig.Aliases of type []string'],
    [{ EndpointsConfig: { bridge: { IPAMConfig: { LinkLocalIPs: '169.254.0.1' } } } }, 'json: cannot unmarshal string into Go struct field EndpointIPAMConfig.NetworkingConfig.EndpointsConfig.IPAMConfig.LinkLocalIPs of type []string'],
    [{ EndpointsConfig: { bridge: {}, none: {} } }, 'Container cannot be connected to network endpoints: bridge, none'],
  ])('at 1.25, %j: %s', (networkingConfig, expected) => {
    expect(verdict(() => parseCreateBody(body(networkingConfig), dockerdAt('1.25')))).toBe(expected);
  });

  test('is read from 1.22, where spec/1 §9.4 has static addresses at create, and ignored before', () => {
    expect(verdict(() => parseCreateBody(body({ EndpointsConfig: 'bridge' }), dockerdAt('1.21')))).toBe('ok');
    expect(parseCreateBody(body({ EndpointsConfig: { n: { IPAMConfig: { IPv4Address: '10.1.0.9', LinkLocalIPs: ['169.254.0.9'] }, Aliases: ['db'] } } }), dockerdAt('1.22')).endpoints)
      .toEqual({ n: { IPAMConfig: { IPv4Address: '10.1.0.9', LinkLocalIPs: ['169.254.0.9'] }, Aliases: ['db'], Links: null } });
  });
});

describe('the create body as Go decodes it', () => {
  test.each([
    [{ Image: 'b', HostConfig: { Privileged: 'yes' } }, 'json: cannot unmarshal string into Go struct field HostConfig.HostConfig.Privileged of type bool'],
    [{ Image: 'b', Tty: 1 }, 'json: cannot unmarshal number into Go struct field ContainerConfigWrapper.Tty of type bool'],
    [{ Image: 'b', Env: [1] }, 'json: cannot unmarshal number into Go struct field ContainerConfigWrapper.Env of type string'],
    [{ Image: 'b', Cmd: [3] }, 'json: cannot unmarshal array into Go struct field ContainerConfigWrapper.Cmd of type string'],
    [{ Image: 'b', ExposedPorts: { '80/tcp': 3 } }, 'json: cannot unmarshal number into Go struct field ContainerConfigWrapper.ExposedPorts of type struct {}'],
    [{ Image: 'b', HostConfig: { Ulimits: [{ Name: 'nofile', Soft: '1' }] } }, 'json: cannot unmarshal string into Go struct field Ulimit.HostConfig.Ulimits.Soft of type int64'],
    [[], 'json: cannot unmarshal array into Go value of type runconfig.ContainerConfigWrapper'],
  ])('%j: %s', (body, expected) => {
    expect(verdict(() => parseCreateBody(body, dockerdAt('1.25')))).toBe(expected);
  });

  test('field names match without regard to case, as Go matches them; the declared names come out', () => {
    const { config, hostConfig } = parseCreateBody({ image: 'busybox', TTY: true, cmd: 'true', hostconfig: { privileged: true, restartpolicy: { name: 'always' } } }, dockerdAt('1.25'));
    expect(config).toEqual({ Image: 'busybox', Tty: true, Cmd: ['true'] });
    expect(hostConfig).toEqual({ Privileged: true, RestartPolicy: { Name: 'always', MaximumRetryCount: 0 } });
  });

  test('null leaves a field unset; unknown fields are dropped, not echoed', () => {
    const { hostConfig } = parseCreateBody({ Image: 'busybox', HostConfig: { Privileged: null, NoSuchField: 'x', Memory: 4_194_304 } }, dockerdAt('1.25'));
    expect(hostConfig).toEqual({ Memory: 4_194_304 });
  });
});
