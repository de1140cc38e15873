/**
 * The shapes of the plugin answers (spec/2 §2.6, §4.5): the list (typed as far as the spec types it)
 * and, as dockerd 20.10 gives them, a plugin's inspect and the privileges a plugin asks for; the
 * pull's array of {Name, Description, Value}. The list is judged on any target (an empty list is an
 * array of plugins too); with the catalogue plugin where the target can pull one.
 */
import { check } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { pluginSchema, pluginSpecListSchema, privilegeListSchema, pullAnswerSchema } from '../../harness/schemas/plugin-schemas.ts';
import { CATALOGUE_NAME, CATALOGUE_PLUGIN, listedAs, ownPlugin, privilegesOf, specPulledCatalogue } from './plugin-steps.ts';

check('plugins.list.schema', {
  title: 'GET /plugins answers 200 with an array of plugins: Id, Name, Tag, Active, Config and Manifest',
  spec: '2 §2.6, §4.5',
  quote: ['| GET /plugins | | none | 200 array of plugin | 200, 500 |', 'Fields: Id, Name, Tag, Active (boolean), Config {Mounts, Env, Args, Devices}, Manifest {ManifestVersion, Description, Documentation, Interface {Types (array), Socket}, Entrypoint, Workdir, User, Network {Type}, Capabilities, Mounts, Devices, Env, Args}.', 'Mount entry: Name, Description, Settable, Source, Destination, Type, Options.', 'Device entry: Name, Description, Settable, Path.', 'Env entry: Name, Description, Settable, Value.'],
  since: '1.24',
  tags: ['schema'],
  covers: ['2:GET /plugins', '2:GET /plugins:status:200'],
}, async (context) => {
  // where the target can pull, a plugin of the spec's pull is listed too
  const pulled = context.session.capabilities.includes('plugins') ? await specPulledCatalogue(context) : undefined;
  if (pulled) context.expect(pulled.status, `POST /plugins/pull?name=${CATALOGUE_PLUGIN} status: ${pulled.describe()}`).toBe(200);
  const res = await context.engine.get('/plugins');
  context.expect(res.status, 'GET /plugins status').toBe(200);
  assertMatchesSchema(res.json(), pluginSpecListSchema, `the plugin list at ${context.version}`);
  if (pulled) context.expect((await listedAs(context, CATALOGUE_NAME)).length, `items named ${CATALOGUE_NAME} in the list`).toBe(1);
});

check('plugins.inspect.schema', {
  title: 'GET /plugins/{name}/json answers the plugin: Id, Name, Tag, Active, Config and Manifest',
  spec: '2 §2.6',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.24',
  tags: ['schema'],
  requires: ['plugins'],
}, async (context) => {
  const name = await ownPlugin(context);
  const res = await context.engine.get(`/plugins/${name}/json`);
  context.expect(res.status, 'GET /plugins/{name}/json status').toBe(200);
  assertMatchesSchema(res.json(), pluginSchema, `the plugin at ${context.version}`);
});

check('plugins.pull.schema', {
  title: 'POST /plugins/pull answers 200 with the privileges granted, an array of {Name, Description, Value}',
  spec: '2 §2.6, §4.5',
  quote: ['| POST /plugins/pull | name (plugin name with optional tag, default latest); header X-Registry-Auth | none | 200 array of {Name, Description, Value} | not shown |', 'The pull response is an array of objects with Name, Description, Value (array of string).'],
  since: '1.24',
  tags: ['schema'],
  requires: ['plugins'],
  covers: ['2:POST /plugins/pull', '2:POST /plugins/pull:query:name', '2:POST /plugins/pull:header:X-Registry-Auth'],
}, async (context) => {
  const res = await specPulledCatalogue(context);
  context.expect(res.status, `POST /plugins/pull?name=${CATALOGUE_PLUGIN} status: ${res.describe()}`).toBe(200);
  assertMatchesSchema(res.json(), pullAnswerSchema, `the pull answer at ${context.version}`);
});

check('plugins.privileges.schema', {
  title: 'GET /plugins/privileges answers what a plugin asks for: the host network, mounts, a device and a capability for vieux/sshfs',
  spec: '2 §4.5',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.24',
  tags: ['schema'],
  requires: ['plugins'],
}, async (context) => {
  const privileges = await privilegesOf(context);
  assertMatchesSchema(privileges, privilegeListSchema, `the privileges at ${context.version}`);
  const names = [...new Set(privileges.map((privilege) => privilege.Name))].sort();
  context.expect(names, 'the kinds of privilege vieux/sshfs asks for').toEqual(['capabilities', 'device', 'mount', 'network']);
});
