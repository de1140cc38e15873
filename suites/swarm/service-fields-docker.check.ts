/**
 * What dockerd 20.10 does with a service's spec where the spec (spec/2 §2.7) is silent, so each check
 * here is docker-level: the ContainerSpec fields of 1.25 (Hostname, Groups, TTY, Hosts, DNSConfig,
 * Healthcheck) and TaskTemplate.ForceUpdate kept; a ForceUpdate change alone replaces the tasks;
 * TaskTemplate.Networks names a network by name and the service keeps its id; the mode given in
 * another case (`replicated`, as the Python SDK sends it) is taken as Go takes field names; a change
 * between replicated and global is refused (501); an update answers a JSON object, with Warnings
 * when dockerd has some.
 */
import { check, type CheckMeta } from '../../harness/check.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { ownNetwork } from '../networks/network-steps.ts';
import { inspectService, replacingTasks, runningTasks, serviceSpec, updateService } from './swarm-steps.ts';

const FIELDS: Omit<CheckMeta, 'title'> = { spec: '2 §2.7', since: '1.24', tags: ['state'], requires: ['swarm'], level: 'docker', seen: 'dockerd 20.10.24' };

type Template = { ContainerSpec: Record<string, unknown> } & Record<string, unknown>;

check('swarm.services.container-spec-fields', { ...FIELDS, since: '1.25', title: 'A service keeps the ContainerSpec Hostname, Groups, TTY, Hosts, DNSConfig and Healthcheck it was given' }, async (context) => {
  const spec = serviceSpec(context);
  const given = {
    Hostname: 'shiphost',
    Groups: ['wheel'],
    TTY: true,
    Hosts: ['10.9.8.7 db.example.test'],
    DNSConfig: { Nameservers: ['10.9.8.53'], Search: ['example.test'], Options: ['ndots:2'] },
    Healthcheck: { Test: ['CMD', 'true'], Interval: 1_000_000_000, Timeout: 1_000_000_000, Retries: 3 },
  };
  Object.assign((spec.TaskTemplate as Template).ContainerSpec, given);
  const id = await context.make.service(spec);
  const kept = (await inspectService(context, id)).Spec.TaskTemplate.ContainerSpec as Record<string, unknown>;
  context.expect(Object.fromEntries(Object.keys(given).map((field) => [field, kept[field]])), 'the ContainerSpec fields as the service shows them').toEqual(given);
});

check('swarm.services.force-update', { ...FIELDS, title: 'An update that changes TaskTemplate.ForceUpdate alone is kept and replaces the running task' }, async (context) => {
  const spec = serviceSpec(context);
  const id = await context.make.service(spec);
  const [first] = await runningTasks(context, id, 1);
  const before = await inspectService(context, id);
  const res = await updateService(context, id, before.Version.Index, { ...spec, Labels: context.make.labels, TaskTemplate: { ...(spec.TaskTemplate as Template), ForceUpdate: 1 } });
  context.expect(res.status, `POST /services/{id}/update status: ${res.describe()}`).toBe(200);
  context.expect(((await inspectService(context, id)).Spec.TaskTemplate as Record<string, unknown>).ForceUpdate, 'TaskTemplate.ForceUpdate after the update').toBe(1);
  // dockerd stops the old task before it starts the new one: wait for the new one to run
  const replaced = await replacingTasks(context, id, first?.ID);
  context.expect(replaced.length, 'running tasks other than the one before the update').toBe(1);
});

check('swarm.services.task-networks', { ...FIELDS, since: '1.25', title: 'TaskTemplate.Networks given a swarm network by name shows it by id' }, async (context) => {
  const name = context.make.uniqueName('ov');
  const network = await ownNetwork(context, { Name: name, Driver: 'overlay' });
  const spec = serviceSpec(context);
  (spec.TaskTemplate as Template).Networks = [{ Target: name, Aliases: ['svc-alias'] }];
  const id = await context.make.service(spec);
  const kept = ((await inspectService(context, id)).Spec.TaskTemplate as Record<string, unknown>).Networks;
  context.expect(kept, 'TaskTemplate.Networks as the service shows it').toEqual([{ Target: network, Aliases: ['svc-alias'] }]);
});

check('swarm.services.mode-any-case', { ...FIELDS, title: 'A Mode given as {"replicated": {"Replicas": 2}} (field names in another case, as Go matches them) runs 2 tasks' }, async (context) => {
  const spec = { ...serviceSpec(context), Mode: { replicated: { Replicas: 2 } } };
  const id = await context.make.service(spec);
  context.expect((await inspectService(context, id)).Spec.Mode, 'the Mode as inspected').toEqual({ Replicated: { Replicas: 2 } });
  await runningTasks(context, id, 2);
});

check('swarm.services.mode-change-refused', { ...FIELDS, title: 'An update from global to replicated mode answers 501 and the service stays global', tags: ['error'] }, async (context) => {
  const spec = serviceSpec(context, { global: true });
  const id = await context.make.service(spec);
  const before = await inspectService(context, id);
  const res = await updateService(context, id, before.Version.Index, { ...spec, Labels: context.make.labels, Mode: { Replicated: { Replicas: 2 } } });
  context.expect(res.status, `POST /services/{id}/update status for a mode change: ${res.describe()}`).toBe(501);
  expectErrorBodyOfVersion(context, res);
  context.expect((await inspectService(context, id)).Spec.Mode, 'the Mode after the refused update').toEqual({ Global: {} });
});

check('swarm.services.update-answer', { ...FIELDS, spec: '2 §4.6', title: 'POST /services/{id}/update answers 200 with a JSON object, whose Warnings (when there are some) are strings' }, async (context) => {
  const spec = serviceSpec(context);
  const id = await context.make.service(spec);
  const before = await inspectService(context, id);
  const res = await updateService(context, id, before.Version.Index, { ...spec, Labels: { ...context.make.labels, changed: 'yes' } });
  context.expect(res.status, `POST /services/{id}/update status: ${res.describe()}`).toBe(200);
  context.expect(res.contentType ?? '', 'the answer\'s Content-Type').toMatch(/^application\/json/);
  const answer = res.json<{ Warnings?: unknown }>();
  context.expect(typeof answer === 'object' && answer !== null && !Array.isArray(answer), `the answer is a JSON object: ${res.text()}`).toBe(true);
  const warnings = answer.Warnings ?? [];
  context.expect(Array.isArray(warnings) && warnings.every((warning) => typeof warning === 'string'), `Warnings: ${JSON.stringify(answer.Warnings)}`).toBe(true);
});
