/**
 * X-Registry-Auth on service create and update (spec/2 §4.6): the credentials the node pulls the
 * service's image with. The image is the fixture pushed to the run's registry, whose repositories
 * are private, under a name the target no longer has: a task runs only if the pull used them.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { removeImage } from '../image-steps.ts';
import { passwordAuth, pushedFixture, registryUser } from '../registry-steps.ts';
import { createService, inspectService, runningTasks, serviceSpec, updateService } from './swarm-steps.ts';

/** The fixture pushed to the run's registry, its name taken off the target again; returns that name. */
async function privateImage(context: CheckContext): Promise<string> {
  const pushed = await pushedFixture(context, 'svc');
  const name = `${pushed.repository}:${pushed.tag}`;
  const removed = await removeImage(context, name);
  context.expect(removed.status, `removing ${name}: ${removed.describe()}`).toBe(200);
  return name;
}

/** `spec` running `image` in one task. */
function runningImage(spec: Record<string, unknown>, image: string): Record<string, unknown> {
  const template = spec.TaskTemplate as { ContainerSpec: Record<string, unknown> };
  return { ...spec, TaskTemplate: { ...template, ContainerSpec: { ...template.ContainerSpec, Image: image } }, Mode: { Replicated: { Replicas: 1 } } };
}

check('swarm.services.create-registry-auth', {
  title: 'a service created with X-Registry-Auth runs a task of an image only the registry has, behind those credentials',
  spec: '2 §4.6',
  since: '1.24',
  tags: ['state'],
  requires: ['swarm', 'registry'],
  timeoutMs: 50_000,
  covers: ['2:POST /services/create:header:X-Registry-Auth'],
}, async (context) => {
  const image = await privateImage(context);
  const res = await createService(context, runningImage(serviceSpec(context), image), passwordAuth(registryUser(context)));
  context.expect(res.status, `POST /services/create status: ${res.describe()}`).toBe(201);
  await runningTasks(context, res.json<{ ID: string }>().ID, 1);
});

check('swarm.services.update-registry-auth', {
  title: 'an update with X-Registry-Auth to an image only the registry has runs a task of it, behind those credentials',
  spec: '2 §4.6',
  since: '1.24',
  tags: ['state'],
  requires: ['swarm', 'registry'],
  timeoutMs: 50_000,
  covers: ['2:POST /services/{id_or_name}/update:header:X-Registry-Auth'],
}, async (context) => {
  const image = await privateImage(context);
  const spec = serviceSpec(context, { replicas: 0 });
  const id = await context.make.service(spec);
  const { Version } = await inspectService(context, id);
  const res = await updateService(context, id, Version.Index, { ...runningImage(spec, image), Labels: context.make.labels }, passwordAuth(registryUser(context)));
  context.expect(res.status, `POST /services/{id}/update status: ${res.describe()}`).toBe(200);
  await runningTasks(context, id, 1);
});
