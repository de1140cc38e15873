/**
 * POST /images/create?fromSrc=- (spec/2 §4.1): the answer is a JSON stream of {status} objects (or
 * {error}), and an import that reports no error makes the image under the given repo and tag; a body
 * that is no archive at all is an error and makes no image. The spec does not say which body an import
 * takes: at docker level, a root filesystem tarball (an exported container) imports and its image runs.
 */
import { check } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { PROGRESS_MESSAGE_SCHEMA } from '../../harness/schemas/image-schemas.ts';
import { exportedRootfs, imageOutput, imageStatus, importImage, streamError, streamMessages, uniqueImageName } from '../image-steps.ts';

check('images.import.stream', {
  title: 'importing an exported root filesystem answers 200 with a JSON stream of {status} (or {error}) objects, or 500; an import without error makes the image under the given repo and tag',
  spec: '2 §4.1',
  quote: [
    '| POST /images/create |',
    'fromSrc (URL to import, or `-` to read the request body), repo, tag',
    'body when fromSrc is `-`',
    '200 JSON stream of {status}, {status, progress, progressDetail {current, total}}, {error} | 200, 500 |',
  ],
  since: '1.18',
  tags: ['stream', 'schema'],
  covers: [
    '2:POST /images/create',
    '2:POST /images/create:query:fromSrc',
    '2:POST /images/create:query:repo',
    '2:POST /images/create:query:tag',
    '2:POST /images/create:body:archive',
    '2:POST /images/create:status:200',
  ],
}, async (context) => {
  const name = uniqueImageName(context, 'import');
  const res = await importImage(context, await exportedRootfs(context, 'true'), name);
  context.expect([200, 500], `status: ${res.describe()}`).toContain(res.status);
  // The spec gives no format for the body of an import: a daemon may refuse an exported root filesystem.
  if (res.status === 500) return;
  const messages = streamMessages(res);
  messages.forEach((message, index) => assertMatchesSchema(message, PROGRESS_MESSAGE_SCHEMA, `object ${index} of the import stream`));
  if (streamError(messages) !== undefined) return;
  context.expect(await imageStatus(context, name), `GET /images/${name}/json status after an import without error`).toBe(200);
});

check('images.import.run', {
  title: 'a root filesystem tarball (an exported container) imports, and a container of the imported image sees its files (as dockerd)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const name = uniqueImageName(context, 'import');
  const res = await importImage(context, await exportedRootfs(context, 'echo imported > /imported.txt'), name);
  context.expect(res.status, 'status').toBe(200);
  context.expect(await imageOutput(context, name, ['cat', '/imported.txt']), 'cat /imported.txt in the imported image').toBe('imported\n');
});

check('images.import.malformed', {
  title: 'importing a body that is not a tarball answers an error (500, or {error} in the stream) and makes no image',
  spec: '2 §4.1',
  quote: [
    '| POST /images/create |',
    'fromSrc (URL to import, or `-` to read the request body), repo, tag',
    'body when fromSrc is `-`',
    '200 JSON stream of {status}, {status, progress, progressDetail {current, total}}, {error} | 200, 500 |',
  ],
  since: '1.18',
  tags: ['error'],
  covers: ['2:POST /images/create:query:fromSrc'],
}, async (context) => {
  const name = uniqueImageName(context, 'import');
  const res = await importImage(context, Buffer.from('this is not a tarball\n'), name);
  const failed = res.status === 500 || (res.status === 200 && streamError(streamMessages(res)) !== undefined);
  context.expect(failed, `the answer is an error: ${res.describe()}`).toBe(true);
  context.expect(await imageStatus(context, name), `GET /images/${name}/json status`).toBe(404);
});
