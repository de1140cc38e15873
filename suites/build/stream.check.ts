/**
 * The JSON stream POST /build answers with (spec/2 §4.1): {stream} objects without error when the
 * build succeeds, {error, errorDetail {code, message}} among them when a step fails (or the row's
 * other status, 500), and with q=1 less than without (verbose output suppressed). At docker level:
 * the stream ends with the `Successfully built <id>` line, a failed step's error object is the last
 * and the t name names no image, and a quiet build streams nothing but the id.
 */
import { check } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { BUILD_MESSAGE_SCHEMA } from '../../harness/schemas/image-schemas.ts';
import { imageStatus, uniqueImageName } from '../image-steps.ts';
import { BUILD_TIMEOUT_MS, build, buildContext, builtImage } from './build-steps.ts';

/**
 * An object of the build stream as spec/2 §4.1 gives it: {stream} (no error), or {error, errorDetail
 * {code, message}}; the spec gives none of these a type. BUILD_MESSAGE_SCHEMA adds dockerd's types.
 */
const SPEC_BUILD_OBJECT = {
  oneOf: [
    { type: 'object', required: ['stream'], not: { required: ['error'] } },
    { type: 'object', required: ['error', 'errorDetail'], properties: { errorDetail: { type: 'object', required: ['code', 'message'] } } },
  ],
} as const;

const BUILD_QUOTES = ['200 JSON stream of objects: {stream}, or {error, errorDetail {code, message}} | 200, 500 |'];

/** The hex of an image id, which build output shortens to its first 12 digits. */
function hexOf(id: string): string {
  return id.replace(/^sha256:/, '');
}

check('build.stream.shape', {
  title: 'a build answers 200 with a JSON stream of {stream} objects, no error among them',
  spec: '2 §4.1',
  quote: ['200 JSON stream of objects: {stream}, or {error, errorDetail {code, message}} | 200, 500 |', 'headers Content-type `application/tar`'],
  since: '1.18',
  tags: ['stream', 'schema'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build', '2:POST /build:status:200', '2:POST /build:header:Content-type'],
}, async (context) => {
  // builtImage asserts 200 and no error object
  const { result } = await builtImage(context, (await buildContext(context, 'minimal')).tar);
  result.messages.forEach((message, index) => assertMatchesSchema(message, SPEC_BUILD_OBJECT, `object ${index} of the build stream`));
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
  title: 'a RUN that exits non-zero fails the build: an {error, errorDetail {code, message}} object in the 200 stream, or 500',
  spec: '2 §4.1',
  quote: BUILD_QUOTES,
  since: '1.18',
  tags: ['stream', 'error'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build', '2:POST /build:query:t'],
}, async (context) => {
  const name = uniqueImageName(context, 'failed');
  const { res, messages, output } = await build(context, (await buildContext(context, 'failing')).tar, { t: name });
  context.expect([200, 500], 'status').toContain(res.status);
  if (res.status !== 200) return;
  messages.forEach((message, index) => assertMatchesSchema(message, SPEC_BUILD_OBJECT, `object ${index} of the build stream`));
  context.expect(messages.some((message) => message.error !== undefined), `an error object in the stream; output: ${output.slice(-300)}`).toBe(true);
});

check('build.stream.failing-run-last-error', {
  title: 'a RUN that exits non-zero ends the 200 stream with {error, errorDetail {code (integer), message}}, and the t name names no image (as dockerd)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['stream', 'error'],
  timeoutMs: BUILD_TIMEOUT_MS,
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
  title: 'a build with q=1 succeeds and streams less text than the same build without q',
  spec: '2 §4.1',
  quote: ['q (suppress verbose output)', ...BUILD_QUOTES],
  since: '1.18',
  tags: ['stream'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build:query:q'],
}, async (context) => {
  // Two contexts of the same build file, each with a label of its own: neither build can reuse the other.
  const verbose = await builtImage(context, (await buildContext(context, 'minimal')).tar);
  const quiet = await builtImage(context, (await buildContext(context, 'minimal')).tar, { q: 1 });
  const [verboseText, quietText] = [verbose.result.output, quiet.result.output];
  context.expect(quietText.length < verboseText.length, `the q=1 output (${quietText.length} characters: ${JSON.stringify(quietText.slice(0, 200))}) is shorter than the verbose one (${verboseText.length})`).toBe(true);
});

check('build.stream.quiet-id-only', {
  title: 'a build with q=1 streams nothing but the id of the built image (as dockerd)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['stream'],
  timeoutMs: BUILD_TIMEOUT_MS,
}, async (context) => {
  const { id, result } = await builtImage(context, (await buildContext(context, 'minimal')).tar, { q: 1 });
  const printed = result.output.trim();
  context.expect(printed.length >= 12 && (printed === id || hexOf(id).startsWith(hexOf(printed))), `the whole output ${JSON.stringify(result.output)} is the id ${id}`).toBe(true);
});
