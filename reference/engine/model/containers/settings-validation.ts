/**
 * What create and update refuse, worded as dockerd's verifyContainerSettings words it. Rules that
 * changed with the API version are options: the HTTP layer says which apply, the model only applies them.
 */
import { signalNumber, UnknownSignalError } from '../../process/index.ts';
import { InvalidParameterError } from '../common/errors.ts';
import type { HostConfig, Resources } from './host-config.ts';
import { isNoRestartPolicy, RESTART_POLICY_NAMES, type RestartPolicy } from './restart-manager.ts';

export interface ValidationRules {
  /** KernelMemory, when set, at least 4 MiB (from API 1.22) */
  kernelMemoryMinimum?: boolean;
  /** Hostname must be an RFC 1123 name (from API 1.24) */
  rfc1123Hostname?: boolean;
}

const KERNEL_MEMORY_MINIMUM = 4 * 1024 * 1024;
/** RFC 1123 labels joined by dots, at most 63 characters in all: dockerd's check from 1.24. */
const HOSTNAME = /^(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])\.)*([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])$/;

function refuse(message: string): never {
  throw new InvalidParameterError(message);
}

export function checkHostname(hostname: string, rules: ValidationRules): void {
  if (hostname && rules.rfc1123Hostname && (hostname.length > 63 || !HOSTNAME.test(hostname))) refuse(`invalid hostname format: ${hostname}`);
}

export function checkStopSignal(stopSignal: string): void {
  if (stopSignal === '') return;
  try {
    signalNumber(stopSignal);
  } catch (error) {
    if (error instanceof UnknownSignalError) refuse(error.message);
    throw error;
  }
}

/** The limits of a create (`update` false) or of an update, which may leave Memory as it was. */
export function checkResources(resources: Partial<Resources>, rules: ValidationRules, update = false): void {
  const memory = resources.Memory ?? 0;
  const swap = resources.MemorySwap ?? 0;
  if (memory > 0 && swap > 0 && swap < memory) refuse('Minimum memoryswap limit should be larger than memory limit, see usage');
  if (memory === 0 && swap > 0 && !update) refuse('You should always set the Memory limit when using Memoryswap limit, see usage');
  const reservation = resources.MemoryReservation ?? 0;
  if (memory > 0 && reservation > memory) refuse('Minimum memory limit can not be less than memory reservation limit, see usage');
  const swappiness = resources.MemorySwappiness ?? -1;
  if (swappiness !== -1 && (swappiness < 0 || swappiness > 100)) refuse(`Invalid value: ${swappiness}, valid memory swappiness range is 0-100`);
  const kernelMemory = resources.KernelMemory ?? 0;
  if (rules.kernelMemoryMinimum && kernelMemory !== 0 && kernelMemory < KERNEL_MEMORY_MINIMUM) refuse('Minimum kernel memory limit allowed is 4MB');
  const period = resources.CpuPeriod ?? 0;
  if (period !== 0 && (period < 1000 || period > 1_000_000)) refuse('CPU cfs period can not be less than 1ms (i.e. 1000) or larger than 1s (i.e. 1000000)');
  const quota = resources.CpuQuota ?? 0;
  if (quota > 0 && quota < 1000) refuse('CPU cfs quota can not be less than 1ms (i.e. 1000)');
  const blkioWeight = resources.BlkioWeight ?? 0;
  if (blkioWeight > 0 && (blkioWeight < 10 || blkioWeight > 1000)) refuse('Range of blkio weight is from 10 to 1000');
}

export function checkRestartPolicy(policy: RestartPolicy): void {
  if (!RESTART_POLICY_NAMES.includes(policy.Name)) refuse(`invalid restart policy '${policy.Name}'`);
  if (policy.Name === 'on-failure' && policy.MaximumRetryCount < 0) refuse('maximum retry count cannot be negative');
  if (policy.Name !== 'on-failure' && policy.Name !== '' && policy.MaximumRetryCount !== 0) {
    refuse(`maximum retry count cannot be used with restart policy '${policy.Name}'`);
  }
}

/** The log drivers dockerd 20.10 has built in (etwlogs only on Windows, where it exists): any other would be a plugin, and there is none. */
const LOG_DRIVERS = ['json-file', 'local', 'journald', 'syslog', 'gelf', 'fluentd', 'awslogs', 'splunk', 'gcplogs', 'logentries', 'etwlogs', 'none'];

export function checkLogDriver(type: string): void {
  if (!LOG_DRIVERS.includes(type)) refuse(`error looking up logging plugin ${type}: plugin "${type}" not found`);
}

/** The whole HostConfig of a create (or of a start that still carries one). */
export function checkHostConfig(hostConfig: HostConfig, rules: ValidationRules): void {
  checkResources(hostConfig, rules);
  if (hostConfig.OomScoreAdj < -1000 || hostConfig.OomScoreAdj > 1000) {
    refuse(`Invalid value ${hostConfig.OomScoreAdj}, range for oom score adj is [-1000, 1000]`);
  }
  if (hostConfig.ShmSize < 0) refuse('SHM size can not be less than 0');
  checkRestartPolicy(hostConfig.RestartPolicy);
  checkLogDriver(hostConfig.LogConfig.Type);
  if (hostConfig.AutoRemove && !isNoRestartPolicy(hostConfig.RestartPolicy)) refuse("can't create 'AutoRemove' container with restart policy");
}
