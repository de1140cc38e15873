/**
 * The build context (spec/2 §4.1): a tar sent plain or compressed with gzip, bzip2 or xz, with the
 * build file at its root under the dialect's name or at another path given by the build file query
 * parameter (`buildfile` in the spec, `dockerfile` in docker's dialect).
 */
import { check } from '../../harness/check.ts';
import { BUILD_TIMEOUT_MS, buildContext, builtImage } from './build-steps.ts';
import { compress, type Compression } from './context-compression.ts';

for (const how of ['gzip', 'bzip2', 'xz'] as const satisfies readonly Compression[]) {
  check(`build.context.${how}`, {
    title: `a build context compressed with ${how} builds like the plain tar`,
    spec: '2 §4.1',
    quote: ['tar archive, uncompressed or compressed with gzip, bzip2 or xz; must contain the build file (default name `Buildfile`) at its root, plus any files of the context', 'headers Content-type `application/tar`', '200 JSON stream of objects: {stream}, or {error, errorDetail {code, message}} | 200, 500 |', 't (name[:tag], default tag latest)'],
    since: '1.18',
    tags: ['state'],
    timeoutMs: BUILD_TIMEOUT_MS,
    covers: ['2:POST /build:body:archive'],
  }, async (context) => {
    const { tar } = await buildContext(context, 'minimal');
    const { id } = await builtImage(context, compress(tar, how));
    // spec/2 §2.1 gives an image's Id as a string, no format.
  context.expect(typeof id === 'string' && id.length > 0, `the Id of the built image: ${JSON.stringify(id)}`).toBe(true);
  });
}

check('build.context.build-file-path', {
  title: 'the build file query parameter names a build file elsewhere in the context',
  spec: '2 §4.1',
  quote: ['buildfile (path inside the context, ignored if remote points to an individual file)', 'tar archive, uncompressed or compressed with gzip, bzip2 or xz; must contain the build file (default name `Buildfile`) at its root, plus any files of the context', '200 JSON stream of objects: {stream}, or {error, errorDetail {code, message}} | 200, 500 |', 't (name[:tag], default tag latest)'],
  since: '1.18',
  tags: ['state'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build:query:buildfile'],
}, async (context) => {
  const buildFilePath = 'build/Other.build';
  const { tar } = await buildContext(context, 'minimal', { buildFilePath });
  const { id } = await builtImage(context, tar, { [context.dialect.buildFileQuery]: buildFilePath });
  // spec/2 §2.1 gives an image's Id as a string, no format.
  context.expect(typeof id === 'string' && id.length > 0, `the Id of the built image: ${JSON.stringify(id)}`).toBe(true);
});
