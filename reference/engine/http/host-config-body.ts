/**
 * A HostConfig from a request body (create, a start before 1.24, update) turned into the model's
 * options: the fields of spec/1 §2.3 are type-checked (the values of those the model does not read
 * yet are passed on as given), and the fields a version does not know are dropped.
 */
import { atLeast } from '../../../harness/versions.ts';
import { InvalidParameterError } from '../model/errors.ts';
import type { HostConfig, LogConfig, Resources } from '../model/host-config.ts';
import type { RestartPolicy } from '../model/restart-manager.ts';
import type { ValidationRules } from '../model/settings-validation.ts';
import { asObject, isBoolean, isInteger, isString, isStringList, isStringMap, optional, type FieldCheck } from './json-fields.ts';
import type { RequestShape } from './personality.ts';

const INTEGER_FIELDS = [
  'Memory', 'MemorySwap', 'MemoryReservation', 'KernelMemory', 'MemorySwappiness', 'CpuShares', 'CpuPeriod', 'CpuQuota', 'BlkioWeight', 'PidsLimit',
  'OomScoreAdj', 'ShmSize',
] as const;
const STRING_FIELDS = ['CpusetCpus', 'CpusetMems', 'NetworkMode', 'PidMode', 'UsernsMode', 'CgroupParent', 'VolumeDriver'] as const;
const STRING_LIST_FIELDS = ['Binds', 'Links', 'Dns', 'DnsOptions', 'DnsSearch', 'ExtraHosts', 'VolumesFrom', 'CapAdd', 'CapDrop', 'GroupAdd', 'SecurityOpt'] as const;
const STRING_MAP_FIELDS = ['Sysctls', 'StorageOpt'] as const;
const THROTTLE_DEVICE_FIELDS = ['BlkioDeviceReadBps', 'BlkioDeviceWriteBps', 'BlkioDeviceReadIOps', 'BlkioDeviceWriteIOps'] as const;

/**
 * The fields each version added (the markers of spec/1 §2.3 and the list of §9.4): a request of an
 * older version has none of them, whatever its body says, so they are dropped before any check, as
 * unknown properties are, unless the personality takes later features at every version. (dockerd
 * reads them at every version and only resets AutoRemove before 1.25: a client of an older version
 * does not send them, so the spec's reading costs it nothing.)
 */
const FIELDS_SINCE: [version: string, fields: readonly string[]][] = [
  ['1.19', ['CpuPeriod', 'CpuQuota']],
  ['1.20', ['GroupAdd']],
  ['1.21', ['MemoryReservation', 'KernelMemory', 'OomScoreAdj', 'DnsOptions', 'VolumeDriver']],
  ['1.22', THROTTLE_DEVICE_FIELDS],
  ['1.23', ['PidsLimit']],
  ['1.24', ['Sysctls', 'StorageOpt']],
  ['1.25', ['AutoRemove', 'UsernsMode', 'ShmSize']],
];

function isList(value: unknown): value is unknown[] {
  return Array.isArray(value);
}

/** Go's unsigned integer fields: a negative number does not decode. */
function isUnsigned(value: unknown): value is number {
  return isInteger(value) && value >= 0;
}

/** A list of objects whose named members, when given, pass their checks. */
function checkObjectList(value: unknown, field: string, members: Record<string, FieldCheck<unknown>>): void {
  for (const item of optional(value, field, isList) ?? []) {
    const entry = asObject(item, field);
    for (const [name, is] of Object.entries(members)) optional(entry[name], `${field}.${name}`, is);
  }
}

/** The version-dependent rules of create and update, for the model to apply. */
export function validationRules(version: string): ValidationRules {
  return { kernelMemoryMinimum: atLeast(version, '1.22'), rfc1123Hostname: atLeast(version, '1.24') };
}

export function parseHostConfig(value: unknown, shape: RequestShape): Partial<HostConfig> {
  const fields: Record<string, unknown> = { ...asObject(value, 'HostConfig') };
  for (const [since, added] of FIELDS_SINCE) {
    if (!shape.personality.takes(shape.version, since)) added.forEach((name) => delete fields[name]);
  }
  const hostConfig: Partial<HostConfig> = { ...fields };
  for (const name of INTEGER_FIELDS) {
    const given = optional(fields[name], `HostConfig.${name}`, isInteger);
    if (given === null) delete hostConfig[name];
  }
  for (const name of STRING_FIELDS) optional(fields[name], `HostConfig.${name}`, isString);
  for (const name of STRING_LIST_FIELDS) optional(fields[name], `HostConfig.${name}`, isStringList);
  for (const name of STRING_MAP_FIELDS) optional(fields[name], `HostConfig.${name}`, isStringMap);
  for (const name of ['AutoRemove', 'ReadonlyRootfs'] as const) optional(fields[name], `HostConfig.${name}`, isBoolean);
  checkObjectList(fields.Ulimits, 'HostConfig.Ulimits', { Name: isString, Soft: isInteger, Hard: isInteger });
  checkObjectList(fields.BlkioWeightDevice, 'HostConfig.BlkioWeightDevice', { Path: isString, Weight: isUnsigned });
  for (const name of THROTTLE_DEVICE_FIELDS) checkObjectList(fields[name], `HostConfig.${name}`, { Path: isString, Rate: isUnsigned });
  const restartPolicy = parseRestartPolicy(fields.RestartPolicy, shape);
  if (restartPolicy) hostConfig.RestartPolicy = restartPolicy;
  const logConfig = parseLogConfig(fields.LogConfig);
  if (logConfig) hostConfig.LogConfig = logConfig;
  return hostConfig;
}

/** The resources of an update body, which sends them at its top level. */
export function parseResources(fields: Record<string, unknown>): Partial<Resources> {
  const resources: Partial<Resources> = {};
  for (const name of INTEGER_FIELDS) {
    const given = optional(fields[name], name, isInteger);
    if (typeof given === 'number' && name !== 'OomScoreAdj' && name !== 'ShmSize') resources[name] = given;
  }
  for (const name of ['CpusetCpus', 'CpusetMems'] as const) {
    const given = optional(fields[name], name, isString);
    if (typeof given === 'string') resources[name] = given;
  }
  return resources;
}

/** `unless-stopped` came with 1.21: an older version knows no such policy (unless the personality takes later features at every version). */
export function parseRestartPolicy(value: unknown, { version, personality }: RequestShape): RestartPolicy | undefined {
  if (value === undefined || value === null) return undefined;
  const fields = asObject(value, 'HostConfig.RestartPolicy');
  const name = optional(fields.Name, 'RestartPolicy.Name', isString) ?? '';
  if (name === 'unless-stopped' && !personality.takes(version, '1.21')) throw new InvalidParameterError(`invalid restart policy '${name}'`);
  return { Name: name, MaximumRetryCount: optional(fields.MaximumRetryCount, 'RestartPolicy.MaximumRetryCount', isInteger) ?? 0 };
}

function parseLogConfig(value: unknown): LogConfig | undefined {
  if (value === undefined || value === null) return undefined;
  const fields = asObject(value, 'HostConfig.LogConfig');
  return {
    Type: optional(fields.Type, 'LogConfig.Type', isString) ?? '',
    Config: optional(fields.Config, 'LogConfig.Config', isStringMap) ?? {},
  };
}
