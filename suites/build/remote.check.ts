/**
 * POST /build with `remote` (spec/2 §4.1): an HTTP URL of a single text file is the build file, and
 * the build needs no body. The file is served on this host's loopback, which only a target on this
 * host reaches (`host-loopback`).
 */
import { check } from '../../harness/check.ts';
import { RUN_LABEL } from '../../harness/resources.ts';
import { imageConfig, inspectImage, streamError, uniqueImageName } from '../image-steps.ts';
import { servedFile } from '../served-file.ts';
import { BUILD_TIMEOUT_MS, build } from './build-steps.ts';

check('build.remote.buildfile', {
  title: 'a build with remote naming a plain-text file over HTTP builds that file: the image carries its LABEL',
  spec: '2 §4.1',
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
  const image = await inspectImage(context, name);
  expect(imageConfig(image).Labels?.['shipshape.remote'], `the LABEL of the remote build file on ${name}`).toBe('yes');
});
