/**
 * A plugin's life (spec/2 §4.5, and dockerd's disable and remove): a pull (the spec's, by `name`)
 * installs it disabled and the list shows it; enable makes it Active and disable inactive again; an enabled plugin cannot be
 * removed unless forced; a removed one is gone; a name that is taken is not pulled again. A plugin is named with or without `:latest`, or by
 * its id.
 */
import { check } from '../../harness/check.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { CATALOGUE_NAME, CATALOGUE_PLUGIN, enabledPlugin, enablePlugin, inspectPlugin, listedAs, ownPlugin, pullPlugin, specPulledCatalogue } from './plugin-steps.ts';

check('plugins.pull.disabled', {
  title: 'a pulled plugin is listed, tagged latest and not Active',
  spec: '2 §2.6, §4.5',
  quote: ['| POST /plugins/pull | name (plugin name with optional tag, default latest); header X-Registry-Auth | none | 200 array of {Name, Description, Value} | not shown |', '| GET /plugins | | none | 200 array of plugin | 200, 500 |', 'After installation a plugin can be enabled with POST /plugins/{plugin name}/enable.', 'Fields: Id, Name, Tag, Active (boolean)'],
  since: '1.24',
  tags: ['state'],
  requires: ['plugins'],
  covers: ['2:POST /plugins/pull', '2:POST /plugins/pull:query:name'],
}, async (context) => {
  // the spec's pull: `name` without a tag, which defaults to latest
  const res = await specPulledCatalogue(context);
  context.expect(res.status, `POST /plugins/pull?name=${CATALOGUE_PLUGIN} status: ${res.describe()}`).toBe(200);
  const listed = await listedAs(context, CATALOGUE_NAME);
  context.expect(listed.map(({ Tag, Active }) => ({ Tag, Active })), `the items of ${CATALOGUE_NAME} in GET /plugins`).toEqual([{ Tag: 'latest', Active: false }]);
});

check('plugins.pull.name-taken', {
  title: 'pulling under the name of an installed plugin is refused with 409, and the plugin stays as it was',
  spec: '2 §4.5',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.24',
  tags: ['error', 'state'],
  requires: ['plugins'],
  covers: ['2:POST /plugins/pull:query:name'],
}, async (context) => {
  const name = await enabledPlugin(context);
  const { Id } = await inspectPlugin(context, name);
  const again = await pullPlugin(context, name);
  context.expect(again.status, 'POST /plugins/pull status under a taken name').toBe(409);
  expectErrorBodyOfVersion(context, again);
  context.expect(await listedAs(context, name), `the items of ${name} in GET /plugins`).toEqual([context.expect.objectContaining({ Id, Active: true })]);
});

check('plugins.enable.active', {
  title: 'POST /plugins/{name}/enable succeeds and the plugin is Active',
  spec: '2 §2.6, §4.5',
  quote: ['| POST /plugins/pull | name (plugin name with optional tag, default latest); header X-Registry-Auth | none | 200 array of {Name, Description, Value} | not shown |', 'After installation a plugin can be enabled with POST /plugins/{plugin name}/enable.', 'Other plugin endpoints (disable, remove, set, details of the enable call): not shown.', '| GET /plugins | | none | 200 array of plugin | 200, 500 |', 'Fields: Id, Name, Tag, Active (boolean)'],
  since: '1.24',
  tags: ['state'],
  requires: ['plugins'],
  covers: ['2:POST /plugins/{name}/enable'],
}, async (context) => {
  const pulled = await specPulledCatalogue(context);
  context.expect(pulled.status, `POST /plugins/pull?name=${CATALOGUE_PLUGIN} status: ${pulled.describe()}`).toBe(200);
  // {plugin name} as the list names it
  const [plugin] = await listedAs(context, CATALOGUE_NAME);
  context.expect(plugin, `${CATALOGUE_NAME} in GET /plugins`).toBeDefined();
  // the spec leaves "details of the enable call" out: no parameters, any success
  const res = await context.engine.post(`/plugins/${plugin?.Name ?? CATALOGUE_NAME}/enable`);
  context.expect(res.status, `POST /plugins/{name}/enable status: ${res.describe()}`).toBeGreaterThanOrEqual(200);
  context.expect(res.status, `POST /plugins/{name}/enable status: ${res.describe()}`).toBeLessThan(300);
  context.expect((await listedAs(context, CATALOGUE_NAME)).map((listed) => listed.Active), `Active of ${CATALOGUE_NAME} in GET /plugins`).toEqual([true]);
});

check('plugins.disable.inactive', {
  title: 'POST /plugins/{name}/disable of an enabled plugin answers 200 and the plugin is no longer Active',
  spec: '2 §4.5',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.24',
  tags: ['state'],
  requires: ['plugins'],
}, async (context) => {
  const name = await enabledPlugin(context);
  const res = await context.engine.post(`/plugins/${name}/disable`);
  context.expect(res.status, 'POST /plugins/{name}/disable status').toBe(200);
  context.expect((await inspectPlugin(context, name)).Active, `Active of ${name} after disable`).toBe(false);
});

check('plugins.enable.already-enabled', {
  title: 'enabling an enabled plugin is refused with 409, and disabling a disabled one too',
  spec: '2 §4.5',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.24',
  tags: ['error', 'state'],
  requires: ['plugins'],
  covers: ['2:POST /plugins/{name}/enable'],
}, async (context) => {
  const name = await enabledPlugin(context);
  const again = await enablePlugin(context, name);
  context.expect(again.status, 'POST /plugins/{name}/enable status of an enabled plugin').toBe(409);
  expectErrorBodyOfVersion(context, again);
  context.expect((await context.engine.post(`/plugins/${name}/disable`)).status, 'POST /plugins/{name}/disable status').toBe(200);
  const twice = await context.engine.post(`/plugins/${name}/disable`);
  context.expect(twice.status, 'POST /plugins/{name}/disable status of a disabled plugin').toBe(409);
});

check('plugins.remove.enabled-refused', {
  title: 'DELETE /plugins/{name} of an enabled plugin is refused with 409 and it stays Active; with force it goes',
  spec: '2 §4.5',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.24',
  tags: ['error', 'state'],
  requires: ['plugins'],
}, async (context) => {
  const name = await enabledPlugin(context);
  const refused = await context.engine.delete(`/plugins/${name}`);
  context.expect(refused.status, 'DELETE /plugins/{name} status of an enabled plugin').toBe(409);
  expectErrorBodyOfVersion(context, refused);
  context.expect((await inspectPlugin(context, name)).Active, `Active of ${name} after the refusal`).toBe(true);
  const forced = await context.engine.delete(`/plugins/${name}`, { query: { force: 1 } });
  context.expect(forced.status, 'DELETE /plugins/{name}?force=1 status').toBe(200);
  context.expect(await listedAs(context, name), `the items of ${name} in GET /plugins after the forced removal`).toEqual([]);
});

check('plugins.remove.disabled', {
  title: 'DELETE /plugins/{name} of a disabled plugin answers 200; it is no longer listed and inspect is 404',
  spec: '2 §4.5',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.24',
  tags: ['state'],
  requires: ['plugins'],
}, async (context) => {
  const name = await ownPlugin(context);
  const res = await context.engine.delete(`/plugins/${name}`);
  context.expect(res.status, 'DELETE /plugins/{name} status').toBe(200);
  context.expect(await listedAs(context, name), `the items of ${name} in GET /plugins after the removal`).toEqual([]);
  context.expect((await context.engine.get(`/plugins/${name}/json`)).status, 'GET /plugins/{name}/json status after the removal').toBe(404);
});

check('plugins.inspect.names', {
  title: 'a plugin is found by its name with or without :latest, and by its id or a prefix of it',
  spec: '2 §2.6',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.24',
  tags: ['state'],
  requires: ['plugins'],
}, async (context) => {
  const name = await ownPlugin(context);
  const { Id } = await inspectPlugin(context, name);
  for (const reference of [`${name}:latest`, Id, Id.slice(0, 12)]) {
    context.expect((await inspectPlugin(context, reference)).Id, `the Id of GET /plugins/${reference}/json`).toBe(Id);
  }
});
