/**
 * The build cache (spec/2 §4.1 nocache): a second build of the same context reuses every step and
 * gives the same image; with nocache=1 it reuses none.
 */
import { check } from '../../harness/check.ts';
import { BUILD_TIMEOUT_MS, buildContext, builtImage } from './build-steps.ts';

check('build.cache.reuse', {
  title: 'building the same context again reuses its steps (`Using cache`) and gives the same image',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['state'],
  timeoutMs: BUILD_TIMEOUT_MS,
}, async (context) => {
  const { tar } = await buildContext(context, 'minimal');
  const first = await builtImage(context, tar);
  const second = await builtImage(context, tar);
  // The same image means every step was reused; `Using cache` says so in the output.
  const seen = { saysCached: second.result.output.includes('Using cache'), sameImage: second.id === first.id };
  context.expect(seen, `the second build; output: ${second.result.output.slice(-400)}`).toEqual({ saysCached: true, sameImage: true });
});

check('build.cache.nocache', {
  title: 'building the same context again with nocache=1 reuses no step and gives a new image',
  spec: '2 §4.1',
  since: '1.18',
  tags: ['state'],
  timeoutMs: BUILD_TIMEOUT_MS,
}, async (context) => {
  const { tar } = await buildContext(context, 'minimal');
  const first = await builtImage(context, tar);
  const second = await builtImage(context, tar, { nocache: 1 });
  const seen = { saysCached: second.result.output.includes('Using cache'), sameImage: second.id === first.id };
  context.expect(seen, `the second build; output: ${second.result.output.slice(-400)}`).toEqual({ saysCached: false, sameImage: false });
});
