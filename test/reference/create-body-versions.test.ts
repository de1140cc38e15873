/**
 * The create body by API version: the fields a version added are read from it on and dropped before
 * it (type errors included, as for any unknown property); the fields' JSON types; NetworkingConfig.
 */
import { describe, expect, test } from 'vitest';
import { parseCreateBody } from '../../reference/engine/http/create-container-body.ts';
import { parseHostConfig } from '../../reference/engine/http/host-config-body.ts';
import { PERSONALITIES } from '../../reference/engine/http/personality.ts';
import { InvalidParameterError } from '../../reference/engine/model/errors.ts';

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
    expect(verdict(() => parseHostConfig({ ShmSize: 'big' }, dockerdAt('1.25')))).toBe('json: cannot unmarshal string into the HostConfig.ShmSize field');
  });

  test('Ulimits and CgroupParent are read at every version', () => {
    const fields = { Ulimits: [{ Name: 'nofile', Soft: 1, Hard: 2 }], CgroupParent: '/parent' };
    expect(parseHostConfig(fields, dockerdAt('1.18'))).toEqual(fields);
  });
});

describe('HostConfig field types', () => {
  test.each([
    [{ Ulimits: 'nofile=1' }, 'json: cannot unmarshal string into the HostConfig.Ulimits field'],
    [{ Ulimits: [{ Name: 'nofile', Soft: '1' }] }, 'json: cannot unmarshal string into the HostConfig.Ulimits.Soft field'],
    [{ Ulimits: ['nofile'] }, 'json: cannot unmarshal string into the HostConfig.Ulimits object'],
    [{ BlkioDeviceReadBps: [{ Path: '/dev/sda', Rate: -1 }] }, 'json: cannot unmarshal number into the HostConfig.BlkioDeviceReadBps.Rate field'],
    [{ BlkioWeightDevice: [{ Path: 7, Weight: 10 }] }, 'json: cannot unmarshal number into the HostConfig.BlkioWeightDevice.Path field'],
    [{ GroupAdd: [1234] }, 'json: cannot unmarshal array into the HostConfig.GroupAdd field'],
    [{ Sysctls: { 'kernel.shmmax': 1 } }, 'json: cannot unmarshal object into the HostConfig.Sysctls field'],
    [{ PidMode: ['host'] }, 'json: cannot unmarshal array into the HostConfig.PidMode field'],
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
    [{ EndpointsConfig: 'bridge' }, 'json: cannot unmarshal string into the NetworkingConfig.EndpointsConfig field'],
    [{ EndpointsConfig: { bridge: { Aliases: 'web' } } }, 'json: cannot unmarshal string into the NetworkingConfig.EndpointsConfig.bridge.Aliases field'],
    [{ EndpointsConfig: { bridge: { IPAMConfig: { LinkLocalIPs: '169.254.0.1' } } } }, 'json: cannot unmarshal string into the NetworkingConfig.EndpointsConfig.bridge.IPAMConfig.LinkLocalIPs field'],
    [{ EndpointsConfig: { bridge: {}, none: {} } }, 'Container cannot be connected to network endpoints: bridge, none'],
  ])('at 1.25, %j: %s', (networkingConfig, expected) => {
    expect(verdict(() => parseCreateBody(body(networkingConfig), dockerdAt('1.25')))).toBe(expected);
  });

  test('is ignored before 1.25', () => {
    expect(verdict(() => parseCreateBody(body({ EndpointsConfig: 'bridge' }), dockerdAt('1.24')))).toBe('ok');
  });
});
