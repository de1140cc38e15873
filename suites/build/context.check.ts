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
    since: '1.18',
    tags: ['state'],
    timeoutMs: BUILD_TIMEOUT_MS,
    covers: ['2:POST /build:body:archive'],
  }, async (context) => {
    const { tar } = await buildContext(context, 'minimal');
    const { id } = await builtImage(context, compress(tar, how));
    context.expect(id, 'the id of the built image').toMatch(/^(sha256:)?[0-9a-f]{64}$/);
  });
}

check('build.context.build-file-path', {
  title: 'the build file query parameter names a build file elsewhere in the context',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['state'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build:query:buildfile'],
}, async (context) => {
  const buildFilePath = 'build/Other.build';
  const { tar } = await buildContext(context, 'minimal', { buildFilePath });
  const { id } = await builtImage(context, tar, { [context.dialect.buildFileQuery]: buildFilePath });
  context.expect(id, 'the id of the built image').toMatch(/^(sha256:)?[0-9a-f]{64}$/);
});
