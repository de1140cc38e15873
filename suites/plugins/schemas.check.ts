/**
 * The shapes of the plugin answers (spec/2 §2.6, §4.5): the list and a plugin's inspect, the pull's
 * array of {Name, Description, Value}, and the privileges a plugin asks for. The list is judged on
 * any target (an empty list is an array of plugins too); with a plugin of its own where the target
 * can pull one.
 */
import { check } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { pluginListSchema, pluginSchema, privilegeListSchema } from '../../harness/schemas/plugin-schemas.ts';
import { listedAs, ownPlugin, privilegesOf, pullPlugin, uniquePluginName } from './plugin-steps.ts';

check('plugins.list.schema', {
  title: 'GET /plugins answers 200 with an array of plugins: Id, Name, Tag, Active, Config and Manifest',
  spec: '2 §4.5',
  since: '1.24',
  tags: ['schema'],
  covers: ['2:GET /plugins', '2:GET /plugins:status:200'],
}, async (context) => {
  const own = context.session.capabilities.includes('plugins') ? await ownPlugin(context) : undefined;
  const res = await context.engine.get('/plugins');
  context.expect(res.status, 'GET /plugins status').toBe(200);
  assertMatchesSchema(res.json(), pluginListSchema, `the plugin list at ${context.version}`);
  if (own !== undefined) context.expect((await listedAs(context, own)).length, `items named ${own} in the list`).toBe(1);
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
  spec: '2 §4.5',
  since: '1.24',
  tags: ['schema'],
  requires: ['plugins'],
  covers: ['2:POST /plugins/pull', '2:POST /plugins/pull:query:name', '2:POST /plugins/pull:header:X-Registry-Auth'],
}, async (context) => {
  const res = await pullPlugin(context, uniquePluginName(context));
  context.expect(res.status, 'POST /plugins/pull status').toBe(200);
  assertMatchesSchema(res.json(), privilegeListSchema, `the pull answer at ${context.version}`);
  context.expect(res.json(), 'the pull answer against GET /plugins/privileges').toEqual(await privilegesOf(context));
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
