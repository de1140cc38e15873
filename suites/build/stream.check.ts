/**
 * The JSON stream POST /build answers with (spec/2 §4.1): {stream} objects without error when the
 * build succeeds (at docker level ending with the `Successfully built <id>` line), {error, errorDetail
 * {code, message}} when a step fails (and no image under the name), and with q=1 nothing but the id.
 */
import { check } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { BUILD_MESSAGE_SCHEMA } from '../../harness/schemas/image-schemas.ts';
import { imageStatus, uniqueImageName } from '../image-steps.ts';
import { BUILD_TIMEOUT_MS, build, buildContext, builtImage } from './build-steps.ts';

/** The hex of an image id, which build output shortens to its first 12 digits. */
function hexOf(id: string): string {
  return id.replace(/^sha256:/, '');
}

check('build.stream.shape', {
  title: 'a build answers 200 with a JSON stream of {stream} objects, no error among them',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['stream', 'schema'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build', '2:POST /build:status:200', '2:POST /build:header:Content-type'],
}, async (context) => {
  // builtImage asserts 200 and no error object
  const { result } = await builtImage(context, (await buildContext(context, 'minimal')).tar);
  result.messages.forEach((message, index) => assertMatchesSchema(message, BUILD_MESSAGE_SCHEMA, `object ${index} of the build stream`));
});

check('build.stream.successfully-built', {
  title: 'the text of a build\'s stream ends with `Successfully built <id>` of the built image (as dockerd)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['stream'],
  timeoutMs: BUILD_TIMEOUT_MS,
}, async (context) => {
  const { id, result } = await builtImage(context, (await buildContext(context, 'minimal')).tar);
  const built = /Successfully built ([0-9a-f]+)/.exec(result.output)?.[1];
  context.expect(built !== undefined && hexOf(id).startsWith(built), `"Successfully built <id>" names the image ${id}; output: ${result.output.slice(-300)}`).toBe(true);
});

check('build.stream.failing-run', {
  title: 'a RUN that exits non-zero ends the stream with {error, errorDetail {code, message}}, and the name given with t names no image',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['stream', 'error'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build', '2:POST /build:query:t'],
}, async (context) => {
  const name = uniqueImageName(context, 'failed');
  const { res, messages, output } = await build(context, (await buildContext(context, 'failing')).tar, { t: name });
  context.expect(res.status, 'status').toBe(200);
  messages.forEach((message, index) => assertMatchesSchema(message, BUILD_MESSAGE_SCHEMA, `object ${index} of the build stream`));
  const last = messages.at(-1);
  context.expect(typeof last?.error === 'string' && typeof last.errorDetail?.message === 'string', `the last object is the error; output: ${output.slice(-300)}; last: ${JSON.stringify(last)}`).toBe(true);
  context.expect(await imageStatus(context, name), `GET /images/${name}/json status`).toBe(404);
});

check('build.stream.quiet', {
  title: 'a build with q=1 streams nothing but the id of the built image',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['stream'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build:query:q'],
}, async (context) => {
  const { id, result } = await builtImage(context, (await buildContext(context, 'minimal')).tar, { q: 1 });
  const printed = result.output.trim();
  context.expect(printed.length >= 12 && (printed === id || hexOf(id).startsWith(hexOf(printed))), `the whole output ${JSON.stringify(result.output)} is the id ${id}`).toBe(true);
});
