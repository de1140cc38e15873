/**
 * `networkmode` on POST /build (API 1.25): the network the containers of RUN steps join. The spec's
 * build row does not list it (spec/2 §4.1), so this is docker-level, as dockerd 20.10 builds. A step
 * that pings a name only a user-defined network's embedded DNS knows passes on that network and
 * fails with `none`.
 */
import { check } from '../../harness/check.ts';
import { startContainer } from '../container-steps.ts';
import { streamError } from '../image-steps.ts';
import { ownNetwork } from '../networks/network-steps.ts';
import { BUILD_TIMEOUT_MS, build, buildContext, builtImage } from './build-steps.ts';

check('build.run.network-mode', {
  title: 'with networkmode naming a user-defined network, a RUN step reaches a container there by its alias; with networkmode=none the same step fails (code 1)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.25',
  tags: ['state'],
  timeoutMs: BUILD_TIMEOUT_MS,
}, async (context) => {
  const network = context.make.uniqueName('buildnet');
  await ownNetwork(context, { Name: network });
  const alias = context.make.uniqueName('pingtarget');
  const target = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['sleep', '300'], HostConfig: { NetworkMode: network }, NetworkingConfig: { EndpointsConfig: { [network]: { Aliases: [alias] } } } });
  await startContainer(context, target);
  const { tar } = await buildContext(context, 'ping-name', { values: { target: alias } });
  await builtImage(context, tar, { networkmode: network });
  const isolated = await build(context, tar, { networkmode: 'none', nocache: 1 });
  context.expect(isolated.res.status, 'POST /build?networkmode=none status').toBe(200);
  context.expect(streamError(isolated.messages)?.errorDetail, `the error of the build with networkmode=none; output: ${isolated.output.slice(-300)}`).toMatchObject({ code: 1 });
});
