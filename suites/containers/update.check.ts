/**
 * POST /containers/{id}/update (spec/1 §4.1, §9.4): from 1.22 it changes a container's resources, from
 * 1.23 its restart policy too, with the limits of the fields (§2.3, §8). Its body, answer and statuses
 * are "not shown", so no request to it is one the spec defines and every check here is docker-level:
 * they send the fields as dockerd takes them (the create HostConfig's names, at the top of the body),
 * take any 2xx for a success and any error status for a refusal, and read the effect back in inspect.
 * What a version before 1.22 answers nothing says, so nothing is asserted there. Every container runs
 * `sleep 300` (or never starts) and goes with the check.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { atLeast } from '../../protocol/versions.ts';
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

/** A new Memory above the current swap limit needs a new MemorySwap with it. */
const NEW_RESOURCES = { Memory: 64 * MIB, MemorySwap: 128 * MIB, CpuShares: 512 };

function succeeded(status: number): boolean {
  return status >= 200 && status < 300;
}

check('containers.update.resources', {
  title: 'update of a running container succeeds (2xx) and inspect shows the new Memory and CpuShares',
  // spec/1 §4.1: the update's "body and response: not shown"
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.22',
  tags: ['state'],
  covers: ['1:POST /containers/{id_or_name}/update', '1:version-rule:1.22:update-endpoint'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: ['sleep', '300'] });
  const res = await context.engine.post(`/containers/${id}/update`, { json: NEW_RESOURCES });
  context.expect(succeeded(res.status), `update status ${res.status} is a success: ${res.text().trim()}`).toBe(true);
  const { Memory, CpuShares } = await hostConfigOf(context, id);
  context.expect({ Memory, CpuShares }, 'HostConfig after the update').toEqual({ Memory: NEW_RESOURCES.Memory, CpuShares: NEW_RESOURCES.CpuShares });
});

check('containers.update.warnings', {
  title: 'a successful update answers 200 with a JSON object {Warnings: [string] or null}',
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.22',
  tags: ['schema'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: ['sleep', '300'] });
  const res = await context.engine.post(`/containers/${id}/update`, { json: NEW_RESOURCES });
  context.expect(res.status, 'status').toBe(200);
  const { Warnings } = res.json<{ Warnings?: unknown }>();
  context.expect(Warnings === null || (Array.isArray(Warnings) && Warnings.every((warning) => typeof warning === 'string')), `Warnings is a list of strings (or null): ${JSON.stringify(Warnings)}`).toBe(true);
});

check('containers.update.restart-policy', {
  title: 'update with a RestartPolicy changes the policy inspect shows',
  // spec/1 §4.1: the update's "body and response: not shown"
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.23',
  tags: ['state'],
  covers: ['1:POST /containers/{id_or_name}/update', '1:version-rule:1.23:update-restart-policy'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: ['sleep', '300'] });
  const policy = { Name: 'on-failure', MaximumRetryCount: 2 };
  const res = await context.engine.post(`/containers/${id}/update`, { json: { RestartPolicy: policy } });
  context.expect(succeeded(res.status), `update status ${res.status} is a success: ${res.text().trim()}`).toBe(true);
  context.expect((await hostConfigOf(context, id)).RestartPolicy, 'HostConfig.RestartPolicy after the update').toEqual(policy);
});

check('containers.update.out-of-range', {
  title: 'update refuses (an error status) values outside the limits of the fields: swap below memory, MemorySwappiness over 100, KernelMemory under 4M, an unknown restart policy (1.23+)',
  // spec/1 §4.1: the update's "body and response: not shown"
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.22',
  tags: ['error'],
  covers: ['1:POST /containers/{id_or_name}/update'],
}, async (context) => {
  const id = await createdContainer(context, { Cmd: ['true'] });
  const cases: [body: Record<string, unknown>, outcome: 'refused' | 'taken'][] = [
    [{ Memory: 64 * MIB, MemorySwap: 32 * MIB }, 'refused'],
    [{ MemorySwappiness: 101 }, 'refused'],
    [{ KernelMemory: MIB }, 'refused'],
    ...(atLeast(context.version, '1.23') ? [[{ RestartPolicy: { Name: 'sometimes', MaximumRetryCount: 0 } }, 'refused'] as [Record<string, unknown>, 'refused']] : []),
    // So that a target refusing every update fails too.
    [{ CpuShares: 512 }, 'taken'],
  ];
  const seen: Record<string, string> = {};
  const expected: Record<string, string> = {};
  for (const [body, outcome] of cases) {
    const key = JSON.stringify(body);
    const { status } = await context.engine.post(`/containers/${id}/update`, { json: body });
    seen[key] = succeeded(status) ? 'taken' : status >= 400 ? 'refused' : `status ${status}`;
    expected[key] = outcome;
  }
  context.expect(seen, `update outcome per body: ${JSON.stringify(seen)}`).toEqual(expected);
});

check('containers.update.auto-remove-restart-policy', {
  title: 'update of an AutoRemove container to a restart policy other than none is refused (an error status) and the policy stays',
  // spec/1 §4.1: the update's "body and response: not shown"
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.25',
  tags: ['error', 'state'],
  covers: ['1:POST /containers/{id_or_name}/update'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: ['sleep', '300'], HostConfig: { AutoRemove: true } });
  const before = (await hostConfigOf(context, id)).RestartPolicy;
  const res = await context.engine.post(`/containers/${id}/update`, { json: { RestartPolicy: { Name: 'always', MaximumRetryCount: 0 } } });
  context.expect(res.status, 'status').toBeGreaterThanOrEqual(400);
  context.expect((await hostConfigOf(context, id)).RestartPolicy, 'HostConfig.RestartPolicy after the refused update').toEqual(before);
});
