/**
 * The limits POST /build gives the containers of its steps (spec/2 §4.1 memory, memswap, cpushares,
 * cpusetcpus, and cpuperiod and cpuquota from 1.19): with rm=0 the step containers stay, and each
 * shows the limits in its HostConfig. The build's label finds them, and removes them after the check.
 * One build asks for them all: each build runs containers on a live daemon, which takes seconds.
 */
import { check } from '../../harness/check.ts';
import { atLeast } from '../../protocol/versions.ts';
import { inspectContainer } from '../container-steps.ts';
import { streamError } from '../image-steps.ts';
import { BUILD_TIMEOUT_MS, buildContext, repeatableBuild } from './build-steps.ts';

/** query parameter → the HostConfig field it sets, and the value sent */
type Limits = Record<string, { field: string; value: number | string }>;

const LIMITS: Limits = {
  memory: { field: 'Memory', value: 64 * 1024 * 1024 },
  memswap: { field: 'MemorySwap', value: 128 * 1024 * 1024 },
  cpushares: { field: 'CpuShares', value: 512 },
  cpusetcpus: { field: 'CpusetCpus', value: '0' },
};

const CPU_PERIOD_QUOTA: Limits = {
  cpuperiod: { field: 'CpuPeriod', value: 100_000 },
  cpuquota: { field: 'CpuQuota', value: 50_000 },
};

check('build.resources.limits', {
  title: 'the step containers of a build with memory, memswap, cpushares, cpusetcpus (and from 1.19 cpuperiod, cpuquota) and rm=0 show those limits in their HostConfig',
  spec: '2 §4.1, 1 §4.1, §2.1, §2.2, §2.3',
  quote: ['memory, memswap (-1 unlimited swap), cpushares, cpusetcpus (e.g. 0-3 or 0,1), cpuperiod and cpuquota (from 1.19)', 'rm (remove intermediate containers after success; default behaviour)', 'all (boolean, default false: only running are listed)', '| Labels | object string to string |', 'HostConfig (object)', '| Memory | integer | limit in bytes |', '| MemorySwap | integer |', '| CpuShares | integer | relative CPU weight |', '| CpusetCpus | string |', '| CpuPeriod | integer |', '| CpuQuota | integer |'],
  since: '1.18',
  tags: ['state', 'version'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: [
    '2:POST /build:query:memory',
    '2:POST /build:query:memswap',
    '2:POST /build:query:cpushares',
    '2:POST /build:query:cpusetcpus',
    '2:POST /build:query:cpuperiod',
    '2:POST /build:query:cpuquota',
    '2:version-rule:1.19:build-cpu-period-quota',
  ],
}, async (context) => {
  const { engine, expect, version } = context;
  const limits = { ...LIMITS, ...(atLeast(version, '1.19') && CPU_PERIOD_QUOTA) };
  const { tar, label } = await buildContext(context, 'minimal');
  const query = { rm: 0, ...Object.fromEntries(Object.entries(limits).map(([parameter, { value }]) => [parameter, value])) };
  const { res, messages, output } = await repeatableBuild(context, tar, query);
  expect({ status: res.status, error: streamError(messages)?.error }, `the build; output: ${output.slice(-300)}`).toEqual({ status: 200, error: undefined });
  // The whole list, picked by the Labels of its items (spec/1 §2.1): spec/1 §4.1 gives the list no label filter.
  const [key, value] = label.split('=') as [string, string];
  const listed = await engine.get('/containers/json', { query: { all: 1 } });
  expect(listed.status, 'GET /containers/json status').toBe(200);
  const containers = listed.json<{ Id: string; Labels?: Record<string, string> | null }[]>().filter((container) => container.Labels?.[key] === value);
  expect(containers.length, 'step containers the build left with rm=0').toBeGreaterThan(0);
  const wanted = Object.fromEntries(Object.values(limits).map(({ field, value }) => [field, value]));
  for (const { Id } of containers) {
    const { HostConfig } = await inspectContainer<{ HostConfig: Record<string, unknown> }>(context, Id);
    const shown = Object.fromEntries(Object.keys(wanted).map((field) => [field, HostConfig[field]]));
    expect(shown, `the HostConfig limits of step container ${Id.slice(0, 12)}`).toEqual(wanted);
  }
});
