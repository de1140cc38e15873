/**
 * POST /containers/{id}/update (spec/1 §4.1, §9.4): from 1.22 it changes a container's resources, from
 * 1.23 its restart policy too, with the limits of create (§2.3, §8). Its body and answer are "not
 * shown": the checks send the fields as the create body names them and read the effect back in
 * inspect. Every container runs `sleep 300` (or never starts) and goes with the check.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { atLeast } from '../../harness/versions.ts';
import { createdContainer, inspectContainer, startedContainer } from '../container-steps.ts';

const MIB = 1024 * 1024;

interface HostConfig {
  Memory: number;
  CpuShares: number;
  RestartPolicy: { Name: string; MaximumRetryCount: number };
}

async function hostConfigOf(context: CheckContext, id: string): Promise<HostConfig> {
  return (await inspectContainer<{ HostConfig: HostConfig }>(context, id)).HostConfig;
}

check('containers.update.resources', {
  title: 'update of a running container answers 200 {Warnings} and inspect shows the new Memory and CpuShares',
  spec: '1 §4.1',
  since: '1.22',
  tags: ['state'],
  covers: ['1:POST /containers/{id_or_name}/update', '1:version-rule:1.22:update-endpoint'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: ['sleep', '300'] });
  // A new Memory above the current swap limit needs a new MemorySwap with it.
  const res = await context.engine.post(`/containers/${id}/update`, { json: { Memory: 64 * MIB, MemorySwap: 128 * MIB, CpuShares: 512 } });
  context.expect(res.status, 'status').toBe(200);
  const { Warnings } = res.json<{ Warnings?: unknown }>();
  context.expect(Warnings === null || Array.isArray(Warnings), `Warnings is a list (or null): ${JSON.stringify(Warnings)}`).toBe(true);
  const { Memory, CpuShares } = await hostConfigOf(context, id);
  context.expect({ Memory, CpuShares }, 'HostConfig after the update').toEqual({ Memory: 64 * MIB, CpuShares: 512 });
});

check('containers.update.restart-policy', {
  title: 'update with a RestartPolicy changes the policy inspect shows',
  spec: '1 §9.4',
  since: '1.23',
  tags: ['state'],
  covers: ['1:POST /containers/{id_or_name}/update', '1:version-rule:1.23:update-restart-policy'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: ['sleep', '300'] });
  const policy = { Name: 'on-failure', MaximumRetryCount: 2 };
  const res = await context.engine.post(`/containers/${id}/update`, { json: { RestartPolicy: policy } });
  context.expect(res.status, 'status').toBe(200);
  context.expect((await hostConfigOf(context, id)).RestartPolicy, 'HostConfig.RestartPolicy after the update').toEqual(policy);
});

check('containers.update.before-1-22', {
  title: 'there is no update endpoint before 1.22: 404',
  spec: '1 §9.4',
  since: '1.18',
  until: '1.21',
  tags: ['version', 'error'],
  covers: ['1:POST /containers/{id_or_name}/update', '1:version-rule:1.22:update-endpoint'],
}, async (context) => {
  const id = await createdContainer(context, { Cmd: ['true'] });
  const res = await context.engine.post(`/containers/${id}/update`, { json: { CpuShares: 512 } });
  context.expect(res.status, `status at ${context.version}`).toBe(404);
});

check('containers.update.out-of-range', {
  title: 'update refuses with 400 what create refuses: swap below memory, MemorySwappiness over 100, KernelMemory under 4M, an unknown restart policy (1.23+)',
  spec: '1 §2.3, §8',
  since: '1.22',
  tags: ['error'],
  covers: ['1:POST /containers/{id_or_name}/update'],
}, async (context) => {
  const id = await createdContainer(context, { Cmd: ['true'] });
  const cases: [body: Record<string, unknown>, status: number][] = [
    [{ Memory: 64 * MIB, MemorySwap: 32 * MIB }, 400],
    [{ MemorySwappiness: 101 }, 400],
    [{ KernelMemory: MIB }, 400],
    ...(atLeast(context.version, '1.23') ? [[{ RestartPolicy: { Name: 'sometimes', MaximumRetryCount: 0 } }, 400] as [Record<string, unknown>, number]] : []),
    // So that a target refusing every update fails too.
    [{ CpuShares: 512 }, 200],
  ];
  const seen: Record<string, number> = {};
  const expected: Record<string, number> = {};
  for (const [body, status] of cases) {
    const key = JSON.stringify(body);
    seen[key] = (await context.engine.post(`/containers/${id}/update`, { json: body })).status;
    expected[key] = status;
  }
  context.expect(seen, `update status per body: ${JSON.stringify(seen)}`).toEqual(expected);
});

check('containers.update.auto-remove-restart-policy', {
  title: 'update of an AutoRemove container to a restart policy other than no is refused (4xx) and the policy stays',
  spec: '1 §2.3',
  since: '1.25',
  tags: ['error', 'state'],
  covers: ['1:POST /containers/{id_or_name}/update'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: ['sleep', '300'], HostConfig: { AutoRemove: true } });
  const before = (await hostConfigOf(context, id)).RestartPolicy;
  const res = await context.engine.post(`/containers/${id}/update`, { json: { RestartPolicy: { Name: 'always', MaximumRetryCount: 0 } } });
  context.expect(res.status, 'status').toBeGreaterThanOrEqual(400);
  context.expect(res.status, 'status').toBeLessThan(500);
  context.expect((await hostConfigOf(context, id)).RestartPolicy, 'HostConfig.RestartPolicy after the refused update').toEqual(before);
});
