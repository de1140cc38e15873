/**
 * Configs (Docker's, API 1.30, which dockerd 20.10 serves at every version prefix, 1.25 included; the
 * spec leaves swarm resources "not shown", so every check here is docker-level): create answers 201
 * {ID}; inspect shows the name, the labels and, unlike a secret, the data; the list filters by name,
 * id and label (not names, which secrets have); an update changes the labels only, at the config's version (its own Data may come
 * back; another Data is 400); removal answers 204 and then the config is 404. Every config is
 * labelled with the run and removed after the check.
 */
import { check, type CheckMeta } from '../../harness/check.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { base64, createSwarmData, inspectSwarmData, listedAmong, ownSwarmData } from './swarm-data-steps.ts';

const CONFIGS: Omit<CheckMeta, 'title'> = { spec: '2 §2.7', since: '1.25', tags: ['state'], requires: ['swarm'], level: 'docker', seen: 'dockerd 20.10.24' };
const DATA = 'listen 8080\n';

check('swarm.configs.create-inspect', { ...CONFIGS, title: 'POST /configs/create answers 201 {ID}; GET /configs/{id}, by id or name, shows Name, Labels and the Data given; GET /configs filtered by name lists it, by names is refused (400)' }, async (context) => {
  const { id, name } = await ownSwarmData(context, 'configs', { Labels: { tier: 'web' } }, DATA);
  context.expect(id, 'the ID create gave').toMatch(/^[0-9a-z]{25}$/);
  for (const reference of [id, name]) {
    const config = await inspectSwarmData(context, 'configs', reference);
    context.expect({ id: config.ID, name: config.Spec.Name, tier: config.Spec.Labels?.tier, data: config.Spec.Data }, `the config inspected by ${reference === id ? 'id' : 'name'}`).toEqual({ id, name, tier: 'web', data: base64(DATA) });
  }
  context.expect(await listedAmong(context, 'configs', [id], { name: [name] }), 'GET /configs?filters={"name":[name]}').toEqual([id]);
  // dockerd takes `names` for secrets only
  const byNames = await context.engine.get('/configs', { query: { filters: JSON.stringify({ names: [name] }) } });
  context.expect(byNames.status, `GET /configs?filters={"names":[name]}: ${byNames.describe()}`).toBe(400);
});

check('swarm.configs.name-taken', { ...CONFIGS, title: 'POST /configs/create with the name of another config answers 409', tags: ['error'] }, async (context) => {
  const { name } = await ownSwarmData(context, 'configs', {}, DATA);
  const res = await createSwarmData(context, 'configs', { Name: name, Data: base64('again') });
  context.expect(res.status, `POST /configs/create status for a name taken: ${res.describe()}`).toBe(409);
  expectErrorBodyOfVersion(context, res);
});

check('swarm.configs.update-labels', { ...CONFIGS, title: 'POST /configs/{id}/update at the config\'s version changes its labels, with or without its own Data (200); another Data is refused (400)' }, async (context) => {
  const { id, name } = await ownSwarmData(context, 'configs', {}, DATA);
  const found = await inspectSwarmData(context, 'configs', id);
  const labels = { ...found.Spec.Labels, changed: 'yes' };
  const res = await context.engine.post(`/configs/${id}/update`, { query: { version: found.Version.Index }, json: { Name: name, Labels: labels, Data: base64(DATA) } });
  context.expect(res.status, `POST /configs/{id}/update status: ${res.describe()}`).toBe(200);
  const updated = await inspectSwarmData(context, 'configs', id);
  context.expect(updated.Spec.Labels, 'the labels after the update').toEqual(labels);
  const changed = await context.engine.post(`/configs/${id}/update`, { query: { version: updated.Version.Index }, json: { Name: name, Labels: labels, Data: base64('other') } });
  context.expect(changed.status, `POST /configs/{id}/update status with another Data: ${changed.describe()}`).toBe(400);
});

check('swarm.configs.remove', { ...CONFIGS, title: 'DELETE /configs/{id} answers 204; the config is then 404, to inspect and to remove' }, async (context) => {
  const { id } = await ownSwarmData(context, 'configs', {}, DATA);
  const res = await context.engine.delete(`/configs/${id}`);
  context.expect(res.status, `DELETE /configs/{id} status: ${res.describe()}`).toBe(204);
  for (const [what, again] of [['GET', await context.engine.get(`/configs/${id}`)], ['DELETE', await context.engine.delete(`/configs/${id}`)]] as const) {
    context.expect(again.status, `${what} /configs/{id} status once removed`).toBe(404);
    expectErrorBodyOfVersion(context, again);
  }
});
