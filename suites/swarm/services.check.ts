/**
 * Services (spec/2 §2.7, §4.6): create and inspect, a name taken, update at the service's version
 * (a stale version is refused and changes nothing), scaling, removal, 404 for an unknown service,
 * and dockerd's list filters, each with a case that matches and one that must not.
 */
import { check, type CheckMeta } from '../../harness/check.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { until } from '../../harness/wait-until.ts';
import { createService, inspectService, listTasks, runningTasks, serviceSpec, updateService, type ServiceView, type TaskView } from './swarm-steps.ts';

const SERVICES: Omit<CheckMeta, 'title'> = { spec: '2 §4.6', since: '1.24', tags: ['state'], requires: ['swarm'] };

check('swarm.services.create-inspect', { ...SERVICES, title: 'A created service inspects with the ID create gave and the spec it was given', covers: ['2:POST /services/create', '2:GET /services/{id_or_name}', '2:POST /services/create:body:Name', '2:POST /services/create:body:Labels', '2:POST /services/create:body:TaskTemplate.ContainerSpec.Image', '2:POST /services/create:body:TaskTemplate.ContainerSpec.Command', '2:POST /services/create:body:TaskTemplate.ContainerSpec.StopGracePeriod', '2:GET /services/{id_or_name}:status:200'] }, async (context) => {
  const spec = serviceSpec(context, { labels: { 'shipshape.check': 'create-inspect' }, replicas: 2 });
  const id = await context.make.service(spec);
  const service = await inspectService(context, id);
  context.expect(service.ID, 'the inspected ID').toBe(id);
  context.expect(
    { name: service.Spec.Name, label: service.Spec.Labels?.['shipshape.check'], image: service.Spec.TaskTemplate.ContainerSpec.Image, command: service.Spec.TaskTemplate.ContainerSpec.Command, mode: service.Spec.Mode },
    'the spec as inspected',
  ).toEqual({ name: spec.Name, label: 'create-inspect', image: context.session.fixtureImage, command: ['sleep', '300'], mode: { Replicated: { Replicas: 2 } } });
});

check('swarm.services.default-mode', { ...SERVICES, level: 'docker', seen: 'dockerd 20.10.24', title: 'A service created without a Mode is replicated with one replica, and runs one task', spec: '2 §2.7', covers: ['2:POST /services/create:body:Mode'] }, async (context) => {
  const spec = serviceSpec(context);
  delete spec.Mode;
  const id = await context.make.service(spec);
  context.expect((await inspectService(context, id)).Spec.Mode, 'the Mode as inspected').toEqual({ Replicated: { Replicas: 1 } });
  await runningTasks(context, id, 1);
});

check('swarm.services.create-name-taken', { ...SERVICES, level: 'docker', seen: 'dockerd 20.10.24', title: 'POST /services/create with the name of another service answers 409', tags: ['error'], covers: ['2:POST /services/create:body:Name'] }, async (context) => {
  const spec = serviceSpec(context);
  await context.make.service(spec);
  const res = await createService(context, spec);
  context.expect(res.status, 'POST /services/create status for a name taken').toBe(409);
  expectErrorBodyOfVersion(context, res);
});

check('swarm.services.update', { ...SERVICES, title: 'POST /services/{id}/update at the current version answers 200 and the service takes the new spec at a new Version.Index', covers: ['2:POST /services/{id_or_name}/update', '2:POST /services/{id_or_name}/update:query:version', '2:POST /services/{id_or_name}/update:body:service-spec', '2:POST /services/{id_or_name}/update:status:200', '2:POST /services/{id_or_name}/update:header:Content-type'] }, async (context) => {
  const spec = serviceSpec(context);
  const id = await context.make.service(spec);
  const before = await inspectService(context, id);
  const res = await updateService(context, id, before.Version.Index, { ...spec, Labels: { ...context.make.labels, changed: 'yes' } });
  context.expect(res.status, 'POST /services/{id}/update status').toBe(200);
  const after = await inspectService(context, id);
  context.expect(after.Spec.Labels?.changed, 'the label the update added').toBe('yes');
  // a new version, so that a writer holding the old one conflicts (spec/2 §4.6); that it grows is dockerd's
  context.expect(after.Version.Index, 'Version.Index after the update').not.toBe(before.Version.Index);
});

check('swarm.services.update-stale-version', { ...SERVICES, title: 'An update at a version the service has left is refused and changes nothing', tags: ['error'], covers: ['2:POST /services/{id_or_name}/update:query:version'] }, async (context) => {
  const spec = serviceSpec(context);
  const id = await context.make.service(spec);
  const stale = (await inspectService(context, id)).Version.Index;
  const first = await updateService(context, id, stale, { ...spec, Labels: { ...context.make.labels, update: 'first' } });
  context.expect(first.status, 'status of the update at the current version').toBe(200);
  const current = await inspectService(context, id);
  const res = await updateService(context, id, stale, { ...spec, Labels: { ...context.make.labels, update: 'stale' } });
  context.expect(res.status, 'status of the update at the stale version').toBeGreaterThanOrEqual(400);
  expectErrorBodyOfVersion(context, res);
  const after = await inspectService(context, id);
  context.expect({ index: after.Version.Index, label: after.Spec.Labels?.update }, 'the service after the refused update').toEqual({ index: current.Version.Index, label: 'first' });
});

check('swarm.services.update-replicas', { ...SERVICES, title: 'An update to 3 replicas runs 3 tasks, one to 1 replica leaves 1 running', covers: ['2:POST /services/{id_or_name}/update:query:version', '2:POST /services/{id_or_name}/update:body:service-spec', '2:POST /services/create:body:Mode'] }, async (context) => {
  const spec = serviceSpec(context);
  const id = await context.make.service(spec);
  await runningTasks(context, id, 1);
  const scaleTo = async (replicas: number) => {
    const { Version } = await inspectService(context, id);
    const res = await updateService(context, id, Version.Index, { ...spec, Labels: context.make.labels, Mode: { Replicated: { Replicas: replicas } } });
    context.expect(res.status, `POST /services/{id}/update status (${replicas} replicas)`).toBe(200);
  };
  await scaleTo(3);
  await runningTasks(context, id, 3);
  await scaleTo(1);
  await runningTasks(context, id, 1);
});

check('swarm.services.remove', { ...SERVICES, title: 'DELETE /services/{id} answers 200; the service is gone (404) and so are its tasks', covers: ['2:DELETE /services/{id_or_name}', '2:DELETE /services/{id_or_name}:status:200'] }, async (context) => {
  const id = await context.make.service(serviceSpec(context));
  const [task] = await runningTasks(context, id, 1);
  const res = await context.engine.delete(`/services/${id}`);
  context.expect(res.status, 'DELETE /services/{id} status').toBe(200);
  context.expect((await context.engine.get(`/services/${id}`)).status, 'GET /services/{id} status after the removal').toBe(404);
  // dockerd removes the tasks just after it answers.
  await until(
    async () => {
      const listed = await listTasks(context, { id: [task?.ID ?? ''] });
      context.expect(listed.status, 'GET /tasks status after the removal').toBe(200);
      return listed.json<TaskView[]>().length;
    },
    (count) => count === 0,
    { what: 'the service\'s task to go from GET /tasks' },
  );
});

for (const [method, path] of [['GET', ''], ['POST', '/update?version=1'], ['DELETE', '']] as const) {
  check(`swarm.services.not-found-${method.toLowerCase()}`, { ...SERVICES, title: `${method} /services/{id}${path.replace(/\?.*/, '')} of an unknown service answers 404`, tags: ['error'], covers: [`2:${method} /services/{id_or_name}${path.replace(/\?.*/, '')}:status:404`] }, async (context) => {
    const target = `/services/${context.make.uniqueName('none')}${path}`;
    const res = await (method === 'GET' ? context.engine.get(target) : method === 'DELETE' ? context.engine.delete(target) : context.engine.post(target, { json: serviceSpec(context) }));
    context.expect(res.status, `${method} ${target} status`).toBe(404);
    expectErrorBodyOfVersion(context, res);
  });
}

/** Each of dockerd's service list filters (spec/2 §4.6 leaves the service list out): a value that names the check's service, and one that must not. */
const LIST_FILTERS: { filter: string; matching: (service: ServiceView) => string; other: (context: { uniqueName: () => string }) => string }[] = [
  { filter: 'id', matching: (service) => service.ID.slice(0, 12), other: () => '0000000000000' },
  { filter: 'name', matching: (service) => service.Spec.Name, other: ({ uniqueName }) => uniqueName() },
  { filter: 'label', matching: (service) => `shipshape.check=${service.Spec.Labels?.['shipshape.check'] ?? ''}`, other: ({ uniqueName }) => `shipshape.check=${uniqueName()}` },
  { filter: 'mode', matching: () => 'replicated', other: () => 'global' },
];

for (const { filter, matching, other } of LIST_FILTERS) {
  check(`swarm.services.filter-${filter}`, { ...SERVICES, level: 'docker', seen: 'dockerd 20.10.24', title: `GET /services?filters={"${filter}":…} lists the service it names and not one it does not` }, async (context) => {
    const id = await context.make.service(serviceSpec(context, { labels: { 'shipshape.check': context.make.uniqueName('label') } }));
    const service = await inspectService(context, id);
    const listed = async (value: string) => {
      const res = await context.engine.get('/services', { query: { filters: JSON.stringify({ [filter]: [value] }) } });
      context.expect(res.status, `GET /services?filters={"${filter}":["${value}"]} status`).toBe(200);
      return res.json<ServiceView[]>().some((item) => item.ID === id);
    };
    const value = matching(service);
    context.expect(await listed(value), `whether ${filter}=${value} lists the service`).toBe(true);
    const otherValue = other({ uniqueName: () => context.make.uniqueName('other') });
    context.expect(await listed(otherValue), `whether ${filter}=${otherValue} lists the service`).toBe(false);
  });
}
