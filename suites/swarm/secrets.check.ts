/**
 * Secrets (Docker's, from API 1.25; the spec leaves the secret resource "not shown", so every check
 * here is docker-level, as dockerd 20.10 answers): create answers 201 {ID} and inspect shows the name
 * and labels but never the data; a name taken is 409; empty data or data that is not base64 is 400;
 * the list filters names (exact), name and id (by prefix) and label; an update changes the labels only
 * (a new name or a changed Data is 400; the same Data repeated is taken) at the secret's version; a
 * service's ContainerSpec.Secrets names a secret by id and name, and the secret cannot be removed
 * while the service uses it (400); removal answers 204 and then the secret is 404; a task's container
 * finds it under /run/secrets. Every secret is labelled with the run and removed after the check.
 */
import { check, type CheckMeta } from '../../harness/check.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { loggedStdout } from '../container-steps.ts';
import { createService, inspectService, isState, serviceSpec, tasksUntil, type TaskView } from './swarm-steps.ts';
import { base64, createSwarmData, inspectSwarmData, listedAmong, ownSwarmData } from './swarm-data-steps.ts';

const SECRETS: Omit<CheckMeta, 'title'> = { spec: '2 §2.7', since: '1.25', tags: ['state'], requires: ['swarm'], level: 'docker', seen: 'dockerd 20.10.24' };

check('swarm.secrets.create-inspect', { ...SECRETS, title: 'POST /secrets/create answers 201 {ID}; GET /secrets/{id}, by id or name, shows Name and Labels and never the data' }, async (context) => {
  const { id, name } = await ownSwarmData(context, 'secrets', { Labels: { tier: 'db' } });
  context.expect(id, 'the ID create gave').toMatch(/^[0-9a-z]{25}$/);
  for (const reference of [id, name]) {
    const secret = await inspectSwarmData(context, 'secrets', reference);
    context.expect({ id: secret.ID, name: secret.Spec.Name, tier: secret.Spec.Labels?.tier, data: secret.Spec.Data }, `the secret inspected by ${reference === id ? 'id' : 'name'}`).toEqual({ id, name, tier: 'db', data: undefined });
  }
});

check('swarm.secrets.name-taken', { ...SECRETS, title: 'POST /secrets/create with the name of another secret answers 409', tags: ['error'] }, async (context) => {
  const { name } = await ownSwarmData(context, 'secrets');
  const res = await createSwarmData(context, 'secrets', { Name: name, Data: base64('again') });
  context.expect(res.status, `POST /secrets/create status for a name taken: ${res.describe()}`).toBe(409);
  expectErrorBodyOfVersion(context, res);
});

check('swarm.secrets.invalid-data', { ...SECRETS, title: 'POST /secrets/create without data, or with data that is not base64, answers 400', tags: ['error'] }, async (context) => {
  for (const [what, data] of [['no data', undefined], ['data that is not base64', '!!not base64!!']] as const) {
    const res = await createSwarmData(context, 'secrets', { Name: context.make.uniqueName('secret'), ...(data !== undefined && { Data: data }) });
    context.expect(res.status, `POST /secrets/create status with ${what}: ${res.describe()}`).toBe(400);
    expectErrorBodyOfVersion(context, res);
  }
});

check('swarm.secrets.list-filters', { ...SECRETS, title: 'GET /secrets filters by names (exact), name and id (prefix) and label (key or key=value)' }, async (context) => {
  const first = await ownSwarmData(context, 'secrets', { Labels: { tier: 'db' } });
  const second = await ownSwarmData(context, 'secrets', { Labels: { tier: 'web' } });
  const own = [first.id, second.id];
  const seen = {
    names: await listedAmong(context, 'secrets', own, { names: [first.name] }),
    namesPrefix: await listedAmong(context, 'secrets', own, { names: [first.name.slice(0, -1)] }),
    namePrefix: await listedAmong(context, 'secrets', own, { name: [first.name.slice(0, -1)] }),
    idPrefix: await listedAmong(context, 'secrets', own, { id: [second.id.slice(0, 10)] }),
    labelKey: await listedAmong(context, 'secrets', own, { label: ['tier'] }),
    labelValue: await listedAmong(context, 'secrets', own, { label: ['tier=web'] }),
  };
  context.expect(seen, 'the own secrets each filter lists').toEqual({
    names: [first.id],
    namesPrefix: [],
    namePrefix: [first.id],
    idPrefix: [second.id],
    labelKey: [...own].sort(),
    labelValue: [second.id],
  });
});

check('swarm.secrets.update-labels', { ...SECRETS, title: 'POST /secrets/{id}/update at the secret\'s version changes its labels (200); a new name is refused (400); a stale version is refused (500)' }, async (context) => {
  const { id, name } = await ownSwarmData(context, 'secrets');
  const found = await inspectSwarmData(context, 'secrets', id);
  const labels = { ...found.Spec.Labels, changed: 'yes' };
  const res = await context.engine.post(`/secrets/${id}/update`, { query: { version: found.Version.Index }, json: { Name: name, Labels: labels } });
  context.expect(res.status, `POST /secrets/{id}/update status: ${res.describe()}`).toBe(200);
  const updated = await inspectSwarmData(context, 'secrets', id);
  context.expect(updated.Spec.Labels, 'the labels after the update').toEqual(labels);
  const renamed = await context.engine.post(`/secrets/${id}/update`, { query: { version: updated.Version.Index }, json: { Name: `${name}x`, Labels: labels } });
  context.expect(renamed.status, `POST /secrets/{id}/update status for a new name: ${renamed.describe()}`).toBe(400);
  const stale = await context.engine.post(`/secrets/${id}/update`, { query: { version: found.Version.Index }, json: { Name: name, Labels: found.Spec.Labels } });
  context.expect(stale.status, `POST /secrets/{id}/update status at a stale version: ${stale.describe()}`).toBe(500);
  context.expect((await inspectSwarmData(context, 'secrets', id)).Spec.Labels, 'the labels after the refused updates').toEqual(labels);
});

check('swarm.secrets.update-same-data', { ...SECRETS, title: 'POST /secrets/{id}/update whose body repeats the secret\'s own Data with new labels is taken (200); a changed Data is refused (400)' }, async (context) => {
  const { id, name } = await ownSwarmData(context, 'secrets');
  const found = await inspectSwarmData(context, 'secrets', id);
  const labels = { ...found.Spec.Labels, changed: 'yes' };
  // dockerd refuses only a Data that differs from the secret's: clients send the spec back whole.
  const same = await context.engine.post(`/secrets/${id}/update`, { query: { version: found.Version.Index }, json: { Name: name, Labels: labels, Data: base64('top secret') } });
  context.expect(same.status, `POST /secrets/{id}/update with the same Data: ${same.describe()}`).toBe(200);
  const updated = await inspectSwarmData(context, 'secrets', id);
  context.expect(updated.Spec.Labels, 'the labels after the update with the same Data').toEqual(labels);
  const changed = await context.engine.post(`/secrets/${id}/update`, { query: { version: updated.Version.Index }, json: { Name: name, Labels: labels, Data: base64('another secret') } });
  context.expect(changed.status, `POST /secrets/{id}/update with another Data: ${changed.describe()}`).toBe(400);
});

check('swarm.secrets.remove', { ...SECRETS, title: 'DELETE /secrets/{id} answers 204; the secret is then 404, to inspect and to remove' }, async (context) => {
  const { id } = await ownSwarmData(context, 'secrets');
  const res = await context.engine.delete(`/secrets/${id}`);
  context.expect(res.status, `DELETE /secrets/{id} status: ${res.describe()}`).toBe(204);
  for (const [what, again] of [['GET', await context.engine.get(`/secrets/${id}`)], ['DELETE', await context.engine.delete(`/secrets/${id}`)]] as const) {
    context.expect(again.status, `${what} /secrets/{id} status once removed`).toBe(404);
    expectErrorBodyOfVersion(context, again);
  }
});

check('swarm.secrets.used-by-service', { ...SECRETS, title: 'A service keeps the secret its ContainerSpec.Secrets names (id, name, file target); the secret cannot be removed while it does (400)' }, async (context) => {
  const { id, name } = await ownSwarmData(context, 'secrets');
  const spec = serviceSpec(context);
  const template = spec.TaskTemplate as { ContainerSpec: Record<string, unknown> };
  const reference = { SecretID: id, SecretName: name, File: { Name: 'token', UID: '0', GID: '0', Mode: 0o444 } };
  template.ContainerSpec.Secrets = [reference];
  const service = await context.make.service(spec);
  const kept = (await inspectService(context, service)).Spec.TaskTemplate.ContainerSpec as { Secrets?: unknown };
  context.expect(kept.Secrets, 'ContainerSpec.Secrets as the service shows it').toEqual([reference]);
  const res = await context.engine.delete(`/secrets/${id}`);
  context.expect(res.status, `DELETE /secrets/{id} status while a service uses it: ${res.describe()}`).toBe(400);
  expectErrorBodyOfVersion(context, res);
  context.expect((await inspectSwarmData(context, 'secrets', id)).ID, 'the secret after the refused removal').toBe(id);
});

check('swarm.secrets.unknown-in-service', { ...SECRETS, title: 'POST /services/create naming a secret the swarm lacks answers 400', tags: ['error'] }, async (context) => {
  const spec = serviceSpec(context);
  const missing = context.make.uniqueName('missing');
  (spec.TaskTemplate as { ContainerSpec: Record<string, unknown> }).ContainerSpec.Secrets = [{ SecretID: missing, SecretName: missing, File: { Name: 'x', UID: '0', GID: '0', Mode: 0o444 } }];
  const res = await createService(context, spec);
  context.expect(res.status, `POST /services/create status for an unknown secret: ${res.describe()}`).toBe(400);
  expectErrorBodyOfVersion(context, res);
});

check('swarm.secrets.file-in-task', { ...SECRETS, title: 'A task\'s container finds the secret its service names as the file /run/secrets/<File.Name>, holding the secret\'s data' }, async (context) => {
  const { id, name } = await ownSwarmData(context, 'secrets');
  const spec = serviceSpec(context, { command: ['cat', '/run/secrets/token'] });
  (spec.TaskTemplate as { ContainerSpec: Record<string, unknown> }).ContainerSpec.Secrets = [{ SecretID: id, SecretName: name, File: { Name: 'token', UID: '0', GID: '0', Mode: 0o444 } }];
  const service = await context.make.service(spec);
  const completed = (tasks: TaskView[]) => tasks.find((listed) => isState(listed.Status.State, 'complete'));
  const task = completed(await tasksUntil(context, service, (tasks) => completed(tasks) !== undefined, `the task of service ${service} to complete`));
  context.expect(await loggedStdout(context, task?.Status.ContainerStatus?.ContainerID ?? ''), 'what the task printed of /run/secrets/token').toBe('top secret');
});
