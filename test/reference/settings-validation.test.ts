/** What create and update refuse: resource ranges, restart policies, AutoRemove, hostnames, stop signals. */
import { describe, expect, test } from 'vitest';
import { InvalidParameterError } from '../../reference/engine/model/common/errors.ts';
import { completeHostConfig, type HostConfig } from '../../reference/engine/model/containers/host-config.ts';
import { checkHostConfig, checkHostname, checkResources, checkStopSignal } from '../../reference/engine/model/containers/settings-validation.ts';

const MIB = 1024 * 1024;

function verdict(hostConfig: Partial<HostConfig>, rules = { kernelMemoryMinimum: true }): string {
  try {
    checkHostConfig(completeHostConfig(hostConfig), rules);
    return 'ok';
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidParameterError);
    return (error as Error).message;
  }
}

describe('checkHostConfig', () => {
  test.each([
    [{ BlkioWeight: 9 }, 'Range of blkio weight is from 10 to 1000'],
    [{ BlkioWeight: 1001 }, 'Range of blkio weight is from 10 to 1000'],
    [{ BlkioWeight: 10 }, 'ok'],
    [{ BlkioWeight: 1000 }, 'ok'],
    [{ MemorySwappiness: -2 }, 'Invalid value: -2, valid memory swappiness range is 0-100'],
    [{ MemorySwappiness: 101 }, 'Invalid value: 101, valid memory swappiness range is 0-100'],
    [{ MemorySwappiness: -1 }, 'ok'],
    [{ MemorySwappiness: 0 }, 'ok'],
    [{ MemorySwappiness: 100 }, 'ok'],
    [{ KernelMemory: 4 * MIB - 1 }, 'Minimum kernel memory limit allowed is 4MB'],
    [{ KernelMemory: 4 * MIB }, 'ok'],
    [{ Memory: 64 * MIB, MemorySwap: 32 * MIB }, 'Minimum memoryswap limit should be larger than memory limit, see usage'],
    [{ Memory: 64 * MIB, MemorySwap: 64 * MIB }, 'ok'],
    [{ Memory: 64 * MIB, MemorySwap: -1 }, 'ok'],
    [{ MemorySwap: 64 * MIB }, 'You should always set the Memory limit when using Memoryswap limit, see usage'],
    [{ ShmSize: -1 }, 'SHM size can not be less than 0'],
    [{ ShmSize: 0 }, 'ok'],
    [{ RestartPolicy: { Name: 'sometimes', MaximumRetryCount: 0 } }, "invalid restart policy 'sometimes'"],
    [{ RestartPolicy: { Name: 'on-failure', MaximumRetryCount: -1 } }, 'maximum retry count cannot be negative'],
    [{ RestartPolicy: { Name: 'always', MaximumRetryCount: 3 } }, "maximum retry count cannot be used with restart policy 'always'"],
    [{ AutoRemove: true, RestartPolicy: { Name: 'always', MaximumRetryCount: 0 } }, "can't create 'AutoRemove' container with restart policy"],
    [{ AutoRemove: true, RestartPolicy: { Name: 'no', MaximumRetryCount: 0 } }, 'ok'],
  ] as [Partial<HostConfig>, string][])('%j: %s', (hostConfig, expected) => {
    expect(verdict(hostConfig)).toBe(expected);
  });

  test('the KernelMemory minimum applies only when the rules say so (API 1.22 on)', () => {
    expect(verdict({ KernelMemory: MIB }, { kernelMemoryMinimum: false })).toBe('ok');
  });

  test('an update may set MemorySwap without Memory (the container has one)', () => {
    expect(() => checkResources({ MemorySwap: 64 * MIB }, {}, true)).not.toThrow();
  });
});

describe('config checks', () => {
  test('hostnames are RFC 1123 names when the rules say so', () => {
    expect(() => checkHostname('bad_host!', { rfc1123Hostname: true })).toThrow(new InvalidParameterError('invalid hostname format: bad_host!'));
    expect(() => checkHostname('a'.repeat(64), { rfc1123Hostname: true })).toThrow(InvalidParameterError);
    expect(() => checkHostname('good-host.example', { rfc1123Hostname: true })).not.toThrow();
    expect(() => checkHostname('bad_host!', {})).not.toThrow();
  });

  test('a stop signal must be one', () => {
    expect(() => checkStopSignal('SIGNOPE')).toThrow(new InvalidParameterError('Invalid signal: SIGNOPE'));
    expect(() => checkStopSignal('USR1')).not.toThrow();
    expect(() => checkStopSignal('')).not.toThrow();
  });
});
