/**
 * The build cache, all dockerd's: spec/2 §4.1 lists `nocache` without a meaning and says nothing of
 * reusing steps. As dockerd does it, a second build of the same context reuses every step and gives
 * the same image; with nocache=1 it reuses none and gives a new one; the output says `Using cache`
 * for a reused step.
 */
import { check } from '../../harness/check.ts';
import type { ApiVersion } from '../../protocol/versions.ts';
import type { Query } from '../../harness/client/engine-client.ts';
import { BUILD_TIMEOUT_MS, buildContext, builtImage } from './build-steps.ts';

const SECOND_BUILDS: { id: string; title: string; since: ApiVersion; covers: string[]; query: Query; cached: boolean }[] = [
  { id: 'build.cache.reuse', title: 'building the same context again reuses its steps: it gives the same image (as dockerd)', since: '1.18', covers: ['2:POST /build', '2:POST /build:query:t'], query: {}, cached: true },
  { id: 'build.cache.nocache', title: 'building the same context again with nocache=1 reuses no step and gives a new image (as dockerd)', since: '1.18', covers: ['2:POST /build:query:nocache'], query: { nocache: 1 }, cached: false },
  // The docker CLI 20.10 sends cachefrom=[] with every build: read as "cache from nothing", no CLI build would reuse a step.
  { id: 'build.cache.cachefrom-empty', title: 'building the same context again with cachefrom=[] reuses its steps: an empty list is no cachefrom (as dockerd)', since: '1.25', covers: ['2:POST /build'], query: { cachefrom: '[]' }, cached: true },
];

for (const { id, title, since, covers, query, cached } of SECOND_BUILDS) {
  // The spec gives nocache no meaning and no cache at all: both are dockerd's.
  check(id, { title, spec: '2 §4.1', level: 'docker', seen: 'dockerd 20.10.24', since, tags: ['state'], timeoutMs: BUILD_TIMEOUT_MS, covers }, async (context) => {
    const { tar } = await buildContext(context, 'minimal');
    const first = await builtImage(context, tar);
    const second = await builtImage(context, tar, query);
    // The same image means every step was reused.
    context.expect(second.id === first.id, `the second build gives the image of the first (${first.id}): ${second.id}`).toBe(cached);
  });
}

check('build.cache.says-using-cache', {
  title: 'building the same context again says `Using cache` in its output; with nocache=1 it does not (as dockerd)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
  timeoutMs: BUILD_TIMEOUT_MS,
}, async (context) => {
  const { tar } = await buildContext(context, 'minimal');
  await builtImage(context, tar);
  const [again, uncached] = [await builtImage(context, tar), await builtImage(context, tar, { nocache: 1 })];
  context.expect({ again: again.result.output.includes('Using cache'), uncached: uncached.result.output.includes('Using cache') }, `the outputs: ${JSON.stringify([again.result.output.slice(-300), uncached.result.output.slice(-300)])}`).toEqual({ again: true, uncached: false });
});

check('build.cache.cachefrom', {
  title: 'with cachefrom naming an earlier build\'s image a build reuses its steps (the same image); with cachefrom naming only the fixture image it reuses none (a new image)',
  spec: '2 §4.1',
  // cachefrom is Docker's (API 1.25); the spec's build parameters do not list it.
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.25',
  tags: ['state'],
  timeoutMs: BUILD_TIMEOUT_MS,
}, async (context) => {
  const { tar } = await buildContext(context, 'minimal');
  const first = await builtImage(context, tar);
  const fromFirst = await builtImage(context, tar, { cachefrom: JSON.stringify([first.name]) });
  const fromFixture = await builtImage(context, tar, { cachefrom: JSON.stringify([context.session.fixtureImage]) });
  context.expect({ fromFirst: fromFirst.id === first.id, fromFixture: fromFixture.id === first.id }, `the images: first ${first.id}, cachefrom first ${fromFirst.id}, cachefrom the fixture ${fromFixture.id}`).toEqual({ fromFirst: true, fromFixture: false });
});
