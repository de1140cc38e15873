/**
 * POST /images/create?fromSrc=- (spec/2 §4.1): the request body is a root filesystem tarball, the
 * answer a JSON stream of {status} objects, and the imported image runs; a body that is not a tarball
 * is an error and makes no image.
 */
import { check } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { PROGRESS_MESSAGE_SCHEMA } from '../../harness/schemas/image-schemas.ts';
import { exportedRootfs, imageOutput, imageStatus, importImage, streamError, streamMessages, uniqueImageName } from '../image-steps.ts';

check('images.import.stream', {
  title: 'importing a tarball answers 200 with a JSON stream of {status} objects and no error, and the image exists under the given repo and tag',
  spec: '2 §4.1',
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
  context.expect(res.status, 'status').toBe(200);
  const messages = streamMessages(res);
  messages.forEach((message, index) => assertMatchesSchema(message, PROGRESS_MESSAGE_SCHEMA, `object ${index} of the import stream`));
  context.expect(streamError(messages), 'an error in the import stream').toBeUndefined();
  context.expect(await imageStatus(context, name), `GET /images/${name}/json status`).toBe(200);
});

check('images.import.run', {
  title: 'a container of an imported image sees the files of the imported tarball',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['state'],
  covers: ['2:POST /images/create:query:fromSrc', '2:POST /images/create:body:archive'],
}, async (context) => {
  const name = uniqueImageName(context, 'import');
  const res = await importImage(context, await exportedRootfs(context, 'echo imported > /imported.txt'), name);
  context.expect(res.status, 'status').toBe(200);
  context.expect(await imageOutput(context, name, ['cat', '/imported.txt']), 'cat /imported.txt in the imported image').toBe('imported\n');
});

check('images.import.malformed', {
  title: 'importing a body that is not a tarball answers an error (500, or {error} in the stream) and makes no image',
  spec: '2 §4.1',
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
