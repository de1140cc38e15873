/**
 * The build cache (spec/2 §4.1 nocache): a second build of the same context reuses every step and
 * gives the same image; with nocache=1 it reuses none.
 */
import { check } from '../../harness/check.ts';
import type { Query } from '../../harness/client/engine-client.ts';
import { BUILD_TIMEOUT_MS, buildContext, builtImage } from './build-steps.ts';

const SECOND_BUILDS: { id: string; title: string; covers: string[]; query: Query; cached: boolean }[] = [
  { id: 'build.cache.reuse', title: 'building the same context again reuses its steps (`Using cache`) and gives the same image', covers: ['2:POST /build', '2:POST /build:query:t'], query: {}, cached: true },
  { id: 'build.cache.nocache', title: 'building the same context again with nocache=1 reuses no step and gives a new image', covers: ['2:POST /build:query:nocache'], query: { nocache: 1 }, cached: false },
];

for (const { id, title, covers, query, cached } of SECOND_BUILDS) {
  check(id, { title, spec: '2 §4.1', since: '1.18', tags: ['state'], timeoutMs: BUILD_TIMEOUT_MS, covers }, async (context) => {
    const { tar } = await buildContext(context, 'minimal');
    const first = await builtImage(context, tar);
    const second = await builtImage(context, tar, query);
    // The same image means every step was reused; `Using cache` says so in the output.
    const seen = { saysCached: second.result.output.includes('Using cache'), sameImage: second.id === first.id };
    context.expect(seen, `the second build; output: ${second.result.output.slice(-400)}`).toEqual({ saysCached: cached, sameImage: cached });
  });
}
