/**
 * Plugin events, which dockerd emits from 1.13 (API 1.25) though spec/2 §6 does not list the type:
 * pull, enable, disable and remove, each of type `plugin` with the plugin's `name` attribute
 * (`repository:tag`). Read from GET /events as it streams, from the daemon's present second.
 */
import { check } from '../../harness/check.ts';
import { eventsFromNow, eventsUntil } from '../daemon-events.ts';
import { enablePlugin, ownPlugin, uniquePluginName } from './plugin-steps.ts';

check('plugins.events.lifecycle', {
  title: 'pull, enable, disable and remove each emit a plugin event naming the plugin',
  spec: '2 §6',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.25',
  tags: ['stream', 'state'],
  requires: ['plugins'],
  covers: ['2:POST /plugins/pull'],
}, async (context) => {
  const { engine, expect } = context;
  const name = uniquePluginName(context);
  const stream = await eventsFromNow(context, { type: ['plugin'] });
  try {
    await ownPlugin(context, name);
    expect((await enablePlugin(context, name)).status, 'POST /plugins/{name}/enable status').toBe(200);
    expect((await engine.post(`/plugins/${name}/disable`)).status, 'POST /plugins/{name}/disable status').toBe(200);
    expect((await engine.delete(`/plugins/${name}`)).status, 'DELETE /plugins/{name} status').toBe(200);
    const events = await eventsUntil(stream, (event) => event.Actor?.Attributes?.name === `${name}:latest`, (event) => event.Action === 'remove');
    const seen = events.map((event) => ({ Type: event.Type, Action: event.Action }));
    expect(seen, `the events of plugin ${name}:latest`).toEqual(['pull', 'enable', 'disable', 'remove'].map((Action) => ({ Type: 'plugin', Action })));
  } finally {
    stream.close();
  }
});
