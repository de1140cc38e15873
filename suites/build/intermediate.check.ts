/**
 * The intermediate containers of a build (spec/2 §4.1 rm, forcerm): removed after a successful build
 * by default, and with forcerm=1 after a failed one too. The build's label, which every image of the
 * build carries and its containers inherit, finds them.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { streamError } from '../image-steps.ts';
import { BUILD_TIMEOUT_MS, build, buildContext, repeatableBuild } from './build-steps.ts';

async function containersLabelled({ engine, expect }: CheckContext, label: string): Promise<string[]> {
  const res = await engine.get('/containers/json', { query: { all: 1, filters: JSON.stringify({ label: [label] }) } });
  expect(res.status, 'GET /containers/json status').toBe(200);
  return res.json<{ Id: string }[]>().map((container) => container.Id);
}

check('build.rm.default', {
  title: 'a successful build leaves none of its intermediate containers',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['state'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build:query:rm'],
}, async (context) => {
  const { tar, label } = await buildContext(context, 'minimal');
  const { res, messages, output } = await repeatableBuild(context, tar);
  context.expect({ status: res.status, error: streamError(messages)?.error }, `the build; output: ${output.slice(-300)}`).toEqual({ status: 200, error: undefined });
  context.expect(await containersLabelled(context, label), 'containers of the build left').toEqual([]);
});

check('build.rm.forcerm', {
  title: 'a failed build with forcerm=1 leaves none of its intermediate containers, the failed step\'s included',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['state'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build:query:forcerm'],
}, async (context) => {
  const { tar, label } = await buildContext(context, 'failing');
  const { res, messages } = await build(context, tar, { forcerm: 1 });
  context.expect({ status: res.status, failed: messages.some((message) => message.error !== undefined) }, 'the build').toEqual({ status: 200, failed: true });
  context.expect(await containersLabelled(context, label), 'containers of the build left').toEqual([]);
});
