/**
 * POST /build with `remote` (spec/2 §4.1): an HTTP URL of a single text file is the build file, and
 * the build needs no body: the build succeeds and names its image as t says. The file is served on
 * this host's loopback, which only a target on this host reaches (`host-loopback`).
 */
import { check } from '../../harness/check.ts';
import { RUN_LABEL } from '../../harness/resources.ts';
import { imageStatus, streamError, uniqueImageName } from '../image-steps.ts';
import { servedFile } from '../served-file.ts';
import { BUILD_TIMEOUT_MS, build } from './build-steps.ts';

check('build.remote.buildfile', {
  title: 'a build with remote naming a plain-text file over HTTP and an empty body builds that file: an image under the t name',
  spec: '2 §4.1',
  quote: ['remote (git repository URI or HTTP/HTTPS context URI; a single text file is used as the build file)', 't (name[:tag], default tag latest)', '200 JSON stream of objects: {stream}, or {error, errorDetail {code, message}} | 200, 500 |', '| GET /images/{name}/json | | none | 200 image inspect | 200, 404, 500 |'],
  since: '1.18',
  tags: ['state'],
  requires: ['host-loopback'],
  timeoutMs: BUILD_TIMEOUT_MS,
  covers: ['2:POST /build:query:remote'],
}, async (context) => {
  const { expect, make, session } = context;
  const label = `shipshape.build=${make.uniqueName('remote')}`;
  make.labelled(label);
  const buildfile = `FROM ${session.fixtureImage}\nLABEL ${RUN_LABEL}="${make.runId}" ${label.replace('=', '="')}" shipshape.remote="yes"\n`;
  const url = await servedFile(context, 'Buildfile', buildfile, 'text/plain');
  const name = uniqueImageName(context, 'remote');
  make.image(name);
  const { res, messages, output } = await build(context, Buffer.alloc(0), { remote: url, t: name });
  expect({ status: res.status, error: streamError(messages)?.error }, `the build of ${url}; output: ${output.slice(-300)}`).toEqual({ status: 200, error: undefined });
  // The body is empty: the only build file there is is the remote one, so an image under t is its
  // build (what its LABEL line does to the image is the build file language's, which the spec leaves out).
  expect(await imageStatus(context, name), `GET /images/${name}/json status after the build`).toBe(200);
});
