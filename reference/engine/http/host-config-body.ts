/**
 * A HostConfig from a request body (create, a start before 1.24, update) turned into the model's
 * options: the fields the model's rules read are type-checked, the rest passed on as given, and the
 * fields a version does not know are dropped or neutralised as dockerd's router does.
 */
import { atLeast, before } from '../../../harness/versions.ts';
import { InvalidParameterError } from '../model/errors.ts';
import type { HostConfig, LogConfig, Resources } from '../model/host-config.ts';
import type { RestartPolicy } from '../model/restart-manager.ts';
import type { ValidationRules } from '../model/settings-validation.ts';
import { asObject, isBoolean, isInteger, isString, isStringMap, optional } from './json-fields.ts';

const INTEGER_FIELDS = [
  'Memory', 'MemorySwap', 'MemoryReservation', 'KernelMemory', 'MemorySwappiness', 'CpuShares', 'CpuPeriod', 'CpuQuota', 'BlkioWeight', 'PidsLimit',
  'OomScoreAdj', 'ShmSize',
] as const;
const STRING_FIELDS = ['CpusetCpus', 'CpusetMems', 'NetworkMode'] as const;

/** The version-dependent rules of create and update, for the model to apply. */
export function validationRules(version: string): ValidationRules {
  return { kernelMemoryMinimum: atLeast(version, '1.22'), rfc1123Hostname: atLeast(version, '1.24') };
}

export function parseHostConfig(value: unknown, version: string): Partial<HostConfig> {
  const fields = asObject(value, 'HostConfig');
  const hostConfig: Partial<HostConfig> = { ...fields };
  for (const name of INTEGER_FIELDS) {
    const given = optional(fields[name], `HostConfig.${name}`, isInteger);
    if (given === null) delete hostConfig[name];
  }
  for (const name of STRING_FIELDS) optional(fields[name], `HostConfig.${name}`, isString);
  for (const name of ['AutoRemove', 'ReadonlyRootfs'] as const) optional(fields[name], `HostConfig.${name}`, isBoolean);
  const restartPolicy = parseRestartPolicy(fields.RestartPolicy, version);
  if (restartPolicy) hostConfig.RestartPolicy = restartPolicy;
  const logConfig = parseLogConfig(fields.LogConfig);
  if (logConfig) hostConfig.LogConfig = logConfig;
  // Both came with 1.25: an older client's request has neither, whatever its body says.
  if (before(version, '1.25')) {
    delete hostConfig.ShmSize;
    delete hostConfig.AutoRemove;
  }
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

/** `unless-stopped` came with 1.21: an older version knows no such policy. */
export function parseRestartPolicy(value: unknown, version: string): RestartPolicy | undefined {
  if (value === undefined || value === null) return undefined;
  const fields = asObject(value, 'HostConfig.RestartPolicy');
  const name = optional(fields.Name, 'RestartPolicy.Name', isString) ?? '';
  if (name === 'unless-stopped' && before(version, '1.21')) throw new InvalidParameterError(`invalid restart policy '${name}'`);
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
