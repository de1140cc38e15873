/**
 * The intermediate containers of a build (spec/2 §4.1 rm, forcerm): removed after a successful build
 * by default, and with forcerm=1 after a failed one too. The build's label, which every image of the
 * build carries and its containers inherit, finds them in the container list.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { streamError } from '../image-steps.ts';
import { BUILD_TIMEOUT_MS, build, buildContext, repeatableBuild } from './build-steps.ts';

/** The build's containers: the whole list, picked by the Labels of its items (spec/1 §2.1; §4.1 gives the list no label filter). */
async function containersLabelled({ engine, expect }: CheckContext, label: string): Promise<string[]> {
  const [key, value] = label.split('=') as [string, string];
  const res = await engine.get('/containers/json', { query: { all: 1 } });
  expect(res.status, 'GET /containers/json status').toBe(200);
  return res.json<{ Id: string; Labels?: Record<string, string> | null }[]>()
    .filter((container) => container.Labels?.[key] === value)
    .map((container) => container.Id);
}

check('build.rm.default', {
  title: 'a successful build leaves none of its intermediate containers',
  spec: '2 §4.1, 1 §4.1, §2.1',
  quote: ['rm (remove intermediate containers after success; default behaviour)', '200 JSON stream of objects: {stream}, or {error, errorDetail {code, message}} | 200, 500 |', 'all (boolean, default false: only running are listed)', '| Labels | object string to string |'],
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
  spec: '2 §4.1, 1 §4.1, §2.1',
  quote: ['forcerm (always remove, includes rm)', '200 JSON stream of objects: {stream}, or {error, errorDetail {code, message}} | 200, 500 |', 'all (boolean, default false: only running are listed)', '| Labels | object string to string |'],
  since: '1.18',
  tags: ['state'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build:query:forcerm'],
}, async (context) => {
  const { tar, label } = await buildContext(context, 'failing');
  const { res, messages } = await build(context, tar, { forcerm: 1 });
  // A failed build: an error object in the 200 stream, or the row's other status, 500.
  const failed = res.status === 500 || (res.status === 200 && messages.some((message) => message.error !== undefined));
  context.expect(failed, `the build failed (status ${res.status}, ${messages.length} objects)`).toBe(true);
  context.expect(await containersLabelled(context, label), 'containers of the build left').toEqual([]);
});
