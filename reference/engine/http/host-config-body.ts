/**
 * A HostConfig from a request body (create, a start before 1.24, update) turned into the model's
 * options: decoded as dockerd decodes it (body-structs.ts; the fields a version does not know are
 * dropped as unknown ones are, spec/1 §2.3's markers), then the rules a version reads differently.
 */
import { atLeast } from '../../../protocol/versions.ts';
import { InvalidParameterError } from '../model/common/errors.ts';
import type { HostConfig, LogConfig, Resources } from '../model/containers/host-config.ts';
import type { RestartPolicy } from '../model/containers/restart-manager.ts';
import type { ValidationRules } from '../model/containers/settings-validation.ts';
import { HOST_CONFIG, UPDATE_CONFIG } from './body-structs.ts';
import { decodeGo } from './json-fields.ts';
import type { RequestShape } from './personality.ts';

/** A HostConfig as the decoder gives it: the fields given, of their declared types. */
export type DecodedHostConfig = Record<string, unknown> & { RestartPolicy?: Partial<RestartPolicy>; LogConfig?: Partial<LogConfig> };

const RESOURCE_FIELDS = [
  'Memory', 'MemorySwap', 'MemoryReservation', 'KernelMemory', 'MemorySwappiness', 'CpuShares', 'CpuPeriod', 'CpuQuota', 'BlkioWeight', 'PidsLimit',
  'CpusetCpus', 'CpusetMems',
] as const;

/** The version-dependent rules of create and update, for the model to apply. */
export function validationRules(version: string): ValidationRules {
  return { kernelMemoryMinimum: atLeast(version, '1.22'), rfc1123Hostname: atLeast(version, '1.24') };
}

/** The body of a start before 1.24: a HostConfig on its own. */
export function parseHostConfig(value: unknown, shape: RequestShape): Partial<HostConfig> {
  return hostConfigOptions(decodeGo<DecodedHostConfig>(value, HOST_CONFIG, shape.personality.decoding(shape.version)), shape);
}

/** A decoded HostConfig as the model's options: a restart policy and log config in full when given. */
export function hostConfigOptions(decoded: DecodedHostConfig, shape: RequestShape): Partial<HostConfig> {
  const { RestartPolicy: policy, LogConfig: logConfig, ...rest } = decoded;
  const hostConfig: Partial<HostConfig> = { ...rest };
  if (shape.personality.relativeBindTargets && Array.isArray(rest.Binds)) hostConfig.Binds = (rest.Binds as string[]).map(rootedBind);
  if (policy) hostConfig.RestartPolicy = restartPolicyOf(policy, shape);
  if (logConfig) hostConfig.LogConfig = { Type: logConfig.Type ?? '', Config: logConfig.Config ?? {} };
  return hostConfig;
}

/** The body of an update: resources at its top level, and (1.23) a restart policy. */
export function parseUpdateBody(body: unknown, shape: RequestShape): { resources: Partial<Resources>; restartPolicy?: RestartPolicy } {
  const decoded = decodeGo<Partial<Resources> & { RestartPolicy?: Partial<RestartPolicy> }>(body ?? {}, UPDATE_CONFIG, shape.personality.decoding(shape.version));
  const resources: Partial<Resources> = {};
  for (const name of RESOURCE_FIELDS) if (decoded[name] !== undefined) Object.assign(resources, { [name]: decoded[name] });
  return { resources, ...(decoded.RestartPolicy && { restartPolicy: restartPolicyOf(decoded.RestartPolicy, shape) }) };
}

/** `unless-stopped` came with 1.21: an older version knows no such policy. */
function restartPolicyOf(policy: Partial<RestartPolicy>, { version }: RequestShape): RestartPolicy {
  const name = policy.Name ?? '';
  if (name === 'unless-stopped' && !atLeast(version, '1.21')) throw new InvalidParameterError(`invalid restart policy '${name}'`);
  return { Name: name, MaximumRetryCount: policy.MaximumRetryCount ?? 0 };
}

/** A Binds entry whose container path is relative, read against the container's root: `v:data:ro` is `v:/data:ro`. */
function rootedBind(entry: string): string {
  const parts = entry.split(':');
  const at = parts.length === 1 ? 0 : 1;
  if (!parts[at]!.startsWith('/')) parts[at] = `/${parts[at]}`;
  return parts.join(':');
}
