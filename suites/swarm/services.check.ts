/**
 * Services (spec/2 §2.7, §4.6): create and inspect (the service found by its name, since the create's
 * answer is "not shown"), update at the service's version with the row's empty text/plain answer, a
 * stale version refused with the row's 500, a mode change answered with a code of the row, scaling,
 * removal, 404 for an unknown service (spec level); and dockerd's create answer and name conflict, its
 * round trip of fields the inspect does not list, its removal of a removed service's tasks and its
 * list filters, each with a case that matches and one that must not (docker level).
 */
import { check, type CheckContext, type CheckMeta } from '../../harness/check.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { until } from '../../harness/wait-until.ts';
import { createService, inspectService, isState, listTasks, runningTasks, serviceByName, serviceSpec, templateOf, updateService, type ServiceView, type TaskView } from './swarm-steps.ts';

const SERVICES: Omit<CheckMeta, 'title'> = { spec: '2 §4.6', since: '1.24', tags: ['state'], requires: ['swarm'] };

check('swarm.services.create-inspect', { ...SERVICES, spec: '2 §4.6, §2.7', quote: ['Creating a service takes the spec of 2.7 and the headers Content-type `application/json` and X-Registry-Auth', '| GET /services/{id_or_name} | | none | 200 service inspect | 200, 404, 500 |', 'Inspect response: ID, Version {Index (integer)}, CreatedAt, UpdatedAt (timestamps), Spec {Name, Task {ContainerSpec {Image}', 'Mode {Replicated {Replicas (integer)}}'], title: 'A created service inspects, by its name, with the Name, image and Mode it was given', covers: ['2:POST /services/create', '2:GET /services/{id_or_name}', '2:POST /services/create:body:Name', '2:POST /services/create:body:TaskTemplate.ContainerSpec.Image', '2:GET /services/{id_or_name}:status:200'] }, async (context) => {
  const spec = serviceSpec(context, { labels: { 'shipshape.check': 'create-inspect' }, replicas: 2 });
  await createService(context, spec);
  // the create's answer is "not shown" (spec/2 §4.6): the service is found by its name
  const service = await inspectService(context, spec.Name as string);
  // the inspect names the template Task, the create body TaskTemplate (spec/2 §2.7): either is read
  context.expect({ name: service.Spec.Name, image: templateOf(service.Spec)?.ContainerSpec?.Image }, 'the Name and image as inspected').toEqual({ name: spec.Name, image: context.session.fixtureImage });
  context.expect(service.Spec.Mode, 'the Mode as inspected').toMatchObject({ Replicated: { Replicas: 2 } });
});

check('swarm.services.create-inspect-docker', { ...SERVICES, level: 'docker', seen: 'dockerd 20.10.24', spec: '2 §2.7', title: 'A created service inspects with the ID create gave, its Labels, and the ContainerSpec Command and StopGracePeriod at Spec.TaskTemplate, as given', covers: ['2:POST /services/create:body:Labels', '2:POST /services/create:body:TaskTemplate.ContainerSpec.Command', '2:POST /services/create:body:TaskTemplate.ContainerSpec.StopGracePeriod'] }, async (context) => {
  const spec = serviceSpec(context, { labels: { 'shipshape.check': 'create-inspect' }, replicas: 0 });
  const id = await context.make.service(spec);
  const service = await inspectService(context, id);
  context.expect(service.ID, 'the inspected ID').toBe(id);
  const given = (spec.TaskTemplate as { ContainerSpec: { StopGracePeriod: number } }).ContainerSpec;
  context.expect(
    { label: service.Spec.Labels?.['shipshape.check'], command: service.Spec.TaskTemplate.ContainerSpec.Command, stopGracePeriod: (service.Spec.TaskTemplate.ContainerSpec as { StopGracePeriod?: number }).StopGracePeriod },
    'the spec as inspected',
  ).toEqual({ label: 'create-inspect', command: ['sleep', '300'], stopGracePeriod: given.StopGracePeriod });
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

check('swarm.services.update', { ...SERVICES, spec: '2 §4.6, §2.7', quote: ['| POST /services/{id_or_name}/update | version (integer, required, the version of the service object being updated, avoids conflicting writes); headers Content-type `application/json`, X-Registry-Auth | service spec | 200 empty, `text/plain; charset=utf-8` | 200, 404, 500 |', 'Mode {Replicated {Replicas (integer)}}'], title: 'POST /services/{id}/update at the current version answers 200 with an empty text/plain body, and the service takes the new spec at a new Version.Index', covers: ['2:POST /services/{id_or_name}/update', '2:POST /services/{id_or_name}/update:query:version', '2:POST /services/{id_or_name}/update:body:service-spec', '2:POST /services/{id_or_name}/update:status:200', '2:POST /services/{id_or_name}/update:header:Content-type'] }, async (context) => {
  const spec = serviceSpec(context, { replicas: 0 });
  const id = await serviceByName(context, spec);
  const before = await inspectService(context, id);
  const res = await updateService(context, id, before.Version.Index, { ...spec, Labels: context.make.labels, Mode: { Replicated: { Replicas: 1 } } });
  context.expect(res.status, `POST /services/{id}/update status: ${res.describe()}`).toBe(200);
  context.expect(res.contentType ?? '', 'the answer\'s Content-Type').toMatch(/^text\/plain; ?charset=utf-8$/i);
  context.expect(res.text(), 'the answer\'s body').toBe('');
  const after = await inspectService(context, id);
  context.expect(after.Spec.Mode, 'the Mode after the update').toMatchObject({ Replicated: { Replicas: 1 } });
  // a new version, so that a writer holding the old one conflicts (spec/2 §4.6); that it grows is dockerd's
  context.expect(after.Version.Index, 'Version.Index after the update').not.toBe(before.Version.Index);
});

check('swarm.services.update-stale-version', { ...SERVICES, spec: '2 §4.6, §2.7, 1 §7.1, §7.2', quote: ['| POST /services/{id_or_name}/update | version (integer, required, the version of the service object being updated, avoids conflicting writes); headers Content-type `application/json`, X-Registry-Auth | service spec | 200 empty, `text/plain; charset=utf-8` | 200, 404, 500 |', 'UpdateConfig {Parallelism}', 'Errors use standard HTTP status codes. From 1.24 the response body is JSON: an object with a single string field `message`.', '404 no such container, image, exec instance, volume, network, service or task'], title: 'An update at a version the service has left is refused with the row\'s 500 and changes nothing', tags: ['error'], covers: ['2:POST /services/{id_or_name}/update:query:version'] }, async (context) => {
  const spec = serviceSpec(context, { replicas: 0 });
  const id = await serviceByName(context, spec);
  const stale = (await inspectService(context, id)).Version.Index;
  const first = await updateService(context, id, stale, { ...spec, Labels: context.make.labels, UpdateConfig: { Parallelism: 1 } });
  context.expect(first.status, 'status of the update at the current version').toBe(200);
  const current = await inspectService(context, id);
  const res = await updateService(context, id, stale, { ...spec, Labels: context.make.labels, UpdateConfig: { Parallelism: 2 } });
  // the row lists 200, 404, 500, and 404 is "no such ... service" (spec/1 §7.2): a refused write is 500
  context.expect(res.status, `status of the update at the stale version: ${res.describe()}`).toBe(500);
  expectErrorBodyOfVersion(context, res);
  const after = await inspectService(context, id);
  const parallelism = (after.Spec as unknown as { UpdateConfig?: { Parallelism?: number } }).UpdateConfig?.Parallelism;
  context.expect({ index: after.Version.Index, parallelism }, 'the service after the refused update').toEqual({ index: current.Version.Index, parallelism: 1 });
});

check('swarm.services.mode-change-status', {
  ...SERVICES,
  spec: '2 §4.6, §2.7, 1 §7.1, §7.2',
  quote: [
    '| POST /services/{id_or_name}/update | version (integer, required, the version of the service object being updated, avoids conflicting writes); headers Content-type `application/json`, X-Registry-Auth | service spec | 200 empty, `text/plain; charset=utf-8` | 200, 404, 500 |',
    'Mode (replicated or global, default replicated)',
    'The status codes of each endpoint are listed in section 4.',
    '404 no such container, image, exec instance, volume, network, service or task',
    'Errors use standard HTTP status codes. From 1.24 the response body is JSON: an object with a single string field `message`.',
  ],
  title: 'An update from global to replicated mode answers a status the update\'s row lists for an existing service: 200, or 500 with the version\'s error body',
  tags: ['error'],
  covers: ['2:POST /services/{id_or_name}/update:body:service-spec'],
}, async (context) => {
  const spec = serviceSpec(context, { global: true });
  const id = await serviceByName(context, spec);
  const before = await inspectService(context, id);
  const res = await updateService(context, id, before.Version.Index, { ...spec, Labels: context.make.labels, Mode: { Replicated: { Replicas: 0 } } });
  // the row lists 200, 404, 500, and 404 is "no such ... service" (spec/1 §7.2); whether the change is taken is not said
  context.expect([200, 500], `POST /services/{id}/update status for a mode change: ${res.describe()}`).toContain(res.status);
  if (res.status === 500) expectErrorBodyOfVersion(context, res);
});

check('swarm.services.update-replicas', { ...SERVICES, spec: '2 §4.6, §2.7, §3', quote: ['| POST /services/{id_or_name}/update | version (integer, required, the version of the service object being updated, avoids conflicting writes); headers Content-type `application/json`, X-Registry-Auth | service spec | 200 empty, `text/plain; charset=utf-8` | 200, 404, 500 |', 'Mode {Replicated {Replicas (integer)}}', 'The task list filter desired-state accepts running, shutdown, accepted.'], title: 'An update to 3 replicas runs 3 tasks, one to 1 replica leaves 1 running', covers: ['2:POST /services/{id_or_name}/update:query:version', '2:POST /services/{id_or_name}/update:body:service-spec', '2:POST /services/create:body:Mode'] }, async (context) => {
  const spec = serviceSpec(context);
  const id = await serviceByName(context, spec);
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

check('swarm.services.remove', { ...SERVICES, spec: '2 §4.6, §3, 1 §7.2', quote: ['| DELETE /services/{id_or_name} | | none | 200 (stops and removes the service) | 200, 404, 500 |', '| GET /services/{id_or_name} | | none | 200 service inspect | 200, 404, 500 |', '| GET /tasks | filters: id=<task id>', 'The task list filter desired-state accepts running, shutdown, accepted.', '404 no such container, image, exec instance, volume, network, service or task'], title: 'DELETE /services/{id} answers 200; the service is gone (404) and its task is stopped (gone, or no longer wanted nor seen running)', covers: ['2:DELETE /services/{id_or_name}', '2:DELETE /services/{id_or_name}:status:200'] }, async (context) => {
  const id = await serviceByName(context, serviceSpec(context));
  const [task] = await runningTasks(context, id, 1);
  const res = await context.engine.delete(`/services/${id}`);
  context.expect(res.status, 'DELETE /services/{id} status').toBe(200);
  context.expect((await context.engine.get(`/services/${id}`)).status, 'GET /services/{id} status after the removal').toBe(404);
  // "stops and removes the service": its task may go from the list or stay, no longer running
  await until(
    () => listedTask(context, task?.ID ?? ''),
    (listed) => listed.every((found) => !isState(found.DesiredState, 'running') && !isState(found.Status.State, 'running')),
    { what: 'the service\'s task to stop' },
  );
});

check('swarm.services.remove-tasks-gone', { ...SERVICES, level: 'docker', seen: 'dockerd 20.10.24', title: 'Once DELETE /services/{id} has answered 200, the service\'s tasks go from GET /tasks', covers: ['2:DELETE /services/{id_or_name}'] }, async (context) => {
  const id = await context.make.service(serviceSpec(context));
  const [task] = await runningTasks(context, id, 1);
  const res = await context.engine.delete(`/services/${id}`);
  context.expect(res.status, 'DELETE /services/{id} status').toBe(200);
  // dockerd removes the tasks just after it answers.
  await until(() => listedTask(context, task?.ID ?? ''), (listed) => listed.length === 0, { what: 'the service\'s task to go from GET /tasks' });
});

/** The tasks GET /tasks lists under filters={"id":[id]}, asserting the list answers. */
async function listedTask(context: CheckContext, id: string): Promise<TaskView[]> {
  const listed = await listTasks(context, { id: [id] });
  context.expect(listed.status, 'GET /tasks status after the removal').toBe(200);
  return listed.json<TaskView[]>().filter((found) => found.ID === id);
}

const NOT_FOUND_ROWS = { GET: '| GET /services/{id_or_name} | | none | 200 service inspect | 200, 404, 500 |', POST: '| POST /services/{id_or_name}/update |', DELETE: '| DELETE /services/{id_or_name} | | none | 200 (stops and removes the service) | 200, 404, 500 |' } as const;

for (const [method, path] of [['GET', ''], ['POST', '/update?version=1'], ['DELETE', '']] as const) {
  check(`swarm.services.not-found-${method.toLowerCase()}`, { ...SERVICES, spec: '2 §4.6, 1 §7.1, §7.2', quote: [NOT_FOUND_ROWS[method], ...(method === 'POST' ? ['200 empty, `text/plain; charset=utf-8` | 200, 404, 500 |'] : []), 'Errors use standard HTTP status codes. From 1.24 the response body is JSON: an object with a single string field `message`.', '404 no such container, image, exec instance, volume, network, service or task'], title: `${method} /services/{id}${path.replace(/\?.*/, '')} of an unknown service answers 404`, tags: ['error'], covers: [`2:${method} /services/{id_or_name}${path.replace(/\?.*/, '')}:status:404`] }, async (context) => {
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
