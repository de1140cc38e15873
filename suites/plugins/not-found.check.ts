/**
 * Unknown plugins, as dockerd answers them: spec/2 §4.5 gives no statuses for the plugin endpoints
 * besides the list's, and leaves inspect, disable and remove "not shown". Each operation on a plugin
 * nobody installed answers 404 with the version's error body, on any target; pulling a name the
 * registry does not have is 404 too.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import type { ApiResponse } from '../../harness/client/api-response.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { enablePlugin, uniquePluginName } from './plugin-steps.ts';

const OPERATIONS: { id: string; request: string; covers?: string[]; send: (context: CheckContext, name: string) => Promise<ApiResponse> }[] = [
  { id: 'plugins.inspect.not-found', request: 'GET /plugins/{name}/json', send: ({ engine }, name) => engine.get(`/plugins/${name}/json`) },
  { id: 'plugins.enable.not-found', request: 'POST /plugins/{name}/enable', covers: ['2:POST /plugins/{name}/enable'], send: (context, name) => enablePlugin(context, name) },
  { id: 'plugins.disable.not-found', request: 'POST /plugins/{name}/disable', send: ({ engine }, name) => engine.post(`/plugins/${name}/disable`) },
  { id: 'plugins.remove.not-found', request: 'DELETE /plugins/{name}', send: ({ engine }, name) => engine.delete(`/plugins/${name}`) },
];

for (const { id, request, covers, send } of OPERATIONS) {
  check(id, {
    title: `${request} of a plugin that is not installed answers 404`,
    spec: '2 §4.5',
    level: 'docker',
    seen: 'dockerd 20.10.24',
    since: '1.24',
    tags: ['error'],
    covers,
  }, async (context) => {
    const res = await send(context, uniquePluginName(context));
    context.expect(res.status, `${request} status of an unknown plugin`).toBe(404);
    expectErrorBodyOfVersion(context, res);
  });
}

check('plugins.pull.unknown', {
  title: 'POST /plugins/pull of a plugin the registry does not have answers 404 and installs nothing',
  spec: '2 §4.5',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.24',
  tags: ['error'],
  requires: ['plugins'],
  covers: ['2:POST /plugins/pull:query:name'],
}, async (context) => {
  const name = uniquePluginName(context);
  // should the target install something all the same, it goes with the check
  context.make.plugin(name);
  const res = await context.engine.post('/plugins/pull', { query: { remote: `${name}:latest`, name } });
  context.expect(res.status, 'POST /plugins/pull status of an unknown plugin').toBe(404);
  expectErrorBodyOfVersion(context, res);
  context.expect((await context.engine.get(`/plugins/${name}/json`)).status, `GET /plugins/${name}/json status`).toBe(404);
});
