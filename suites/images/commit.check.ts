/**
 * POST /commit (spec/2 §4.1): 201 {Id}; the committed image holds what the container wrote and runs;
 * comment, author, changes and the config body shape the image; pause leaves a running container
 * running; an unknown container is 404.
 */
import { check } from '../../harness/check.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { COMMIT_RESPONSE_SCHEMA } from '../../harness/schemas/image-schemas.ts';
import { until } from '../../harness/wait-until.ts';
import { containerState, exitedContainer, startedContainer } from '../container-steps.ts';
import { expectErrorBodyOfVersion } from '../error-body.ts';
import { commit, imageConfig, imageOutput, inspectImage, uniqueImageName } from '../image-steps.ts';
import { stdoutSoFar } from '../stream-reading.ts';

check('images.commit.run', {
  title: 'POST /commit answers 201 {Id}, and a container of the committed image sees the file the committed container wrote',
  spec: '2 §4.1, §2.1',
  quote: [
    '| POST /commit |',
    'container (source), repo, tag',
    '201 {Id} | 201, 404, 500 |',
    'An image can be referenced by any RepoTags value or RepoDigests value.',
  ],
  since: '1.18',
  tags: ['state', 'schema'],
  covers: ['2:POST /commit', '2:POST /commit:query:container', '2:POST /commit:query:repo', '2:POST /commit:query:tag', '2:POST /commit:status:201'],
}, async (context) => {
  const container = await exitedContainer(context, { Cmd: ['sh', '-c', 'echo written > /made.txt'] });
  const name = uniqueImageName(context, 'commit');
  const res = await commit(context, container, { name });
  context.expect(res.status, 'status').toBe(201);
  assertMatchesSchema(res.json(), COMMIT_RESPONSE_SCHEMA, 'the commit response');
  context.expect(await imageOutput(context, name, ['cat', '/made.txt']), 'cat /made.txt in the committed image').toBe('written\n');
});

check('images.commit.options', {
  title: 'commit with comment and author records the parent image and takes Cmd, Labels and WorkingDir from the config body',
  spec: '2 §4.1, §2.1',
  quote: [
    '| POST /commit |',
    'comment, author',
    'JSON container configuration (Hostname, Domainname, User, Attach flags, Tty, OpenStdin, StdinOnce, Env, Cmd, Mounts, Labels, WorkingDir, NetworkDisabled, ExposedPorts)',
    'Inspect response: Created (timestamp), Container (string), ContainerConfig (object with Hostname, User, AttachStdin, AttachStdout, AttachStderr, Tty, OpenStdin, StdinOnce, Env, Cmd, Dns, Image, Labels, Volumes, VolumesFrom, WorkingDir), Id, Parent, Size',
  ],
  since: '1.18',
  tags: ['state'],
  covers: [
    '2:POST /commit:query:comment',
    '2:POST /commit:query:author',
    '2:POST /commit:query:container',
    '2:POST /commit:body:Cmd',
    '2:POST /commit:body:Labels',
    '2:POST /commit:body:WorkingDir',
  ],
}, async (context) => {
  // Image inspect (spec/2 §2.1) has no Comment or Author, and the spec gives no syntax for `changes`: dockerd's are the check below.
  const { expect, session } = context;
  const container = await exitedContainer(context, { Cmd: ['true'] });
  const res = await commit(context, container, {
    query: { comment: 'a comment', author: 'shipshape <checks@example.invalid>' },
    config: { Cmd: ['cat', '/etc/passwd'], Labels: { 'shipshape.committed': 'yes' }, WorkingDir: '/tmp' },
  });
  expect(res.status, 'status').toBe(201);
  const image = await inspectImage(context, res.json<{ Id: string }>().Id);
  const fixture = await inspectImage(context, session.fixtureImage);
  const config = imageConfig(image);
  const seen = { Parent: image.Parent, Cmd: config.Cmd, WorkingDir: config.WorkingDir, label: config.Labels?.['shipshape.committed'] };
  expect(seen, 'the committed image').toEqual({ Parent: fixture.Id, Cmd: ['cat', '/etc/passwd'], WorkingDir: '/tmp', label: 'yes' });
});

check('images.commit.options-recorded', {
  title: 'commit records comment and author as Comment and Author, the source container as Container, and applies changes (ENV, EXPOSE 8080 as 8080/tcp) (as dockerd)',
  spec: '2 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const { expect } = context;
  const container = await exitedContainer(context, { Cmd: ['true'] });
  const res = await commit(context, container, {
    query: { comment: 'a comment', author: 'shipshape <checks@example.invalid>', changes: ['ENV COMMITTED=yes', 'EXPOSE 8080'] },
  });
  expect(res.status, 'status').toBe(201);
  const image = await inspectImage(context, res.json<{ Id: string }>().Id);
  const config = imageConfig(image);
  const seen = {
    Comment: image.Comment,
    Author: image.Author,
    Container: image.Container,
    env: (config.Env ?? []).includes('COMMITTED=yes'),
    exposed: Object.keys(config.ExposedPorts ?? {}),
  };
  expect(seen, 'the committed image').toEqual({ Comment: 'a comment', Author: 'shipshape <checks@example.invalid>', Container: container, env: true, exposed: ['8080/tcp'] });
});

check('images.commit.pause', {
  title: 'commit with pause=1 of a running container answers 201 and leaves the container running, not paused',
  spec: '2 §4.1',
  quote: [
    '| POST /commit |',
    'pause (boolean, pause the container during commit)',
    '201 {Id} | 201, 404, 500 |',
  ],
  since: '1.18',
  tags: ['state'],
  covers: ['2:POST /commit:query:pause', '2:POST /commit:status:201'],
}, async (context) => {
  const { engine, expect } = context;
  const container = await startedContainer(context, { Cmd: ['sh', '-c', 'echo running > /made.txt; echo ready; sleep 300'] });
  await until(
    // the frames' payloads joined: spec/1 §4.4 fixes the frame format, not where output is cut into frames
    async () => stdoutSoFar((await engine.get(`/containers/${container}/logs`, { query: { stdout: 1 } })).body).includes('ready'),
    (ready) => ready,
    { what: 'the container to write its file' },
  );
  const res = await commit(context, container, { name: uniqueImageName(context, 'commit'), query: { pause: 1 } });
  expect(res.status, 'status').toBe(201);
  const state = await containerState(context, container);
  expect({ Running: state.Running, Paused: state.Paused }, 'the container after the commit').toEqual({ Running: true, Paused: false });
  expect(await imageOutput(context, res.json<{ Id: string }>().Id, ['cat', '/made.txt']), 'cat /made.txt in the committed image').toBe('running\n');
});

check('images.commit.unknown-container', {
  title: 'committing a container the target does not have answers 404 with the error body of the version',
  spec: '2 §4.1, 1 §7.1, §7.2',
  quote: [
    '| POST /commit |',
    'container (source)',
    '201 {Id} | 201, 404, 500 |',
    'From 1.24 the response body is JSON: an object with a single string field `message`. Before 1.24 the body is plain text.',
    '404 no such container, image, exec instance, volume, network, service or task',
  ],
  since: '1.18',
  tags: ['error'],
  covers: ['2:POST /commit:query:container', '2:POST /commit:status:404'],
}, async (context) => {
  const res = await commit(context, context.make.uniqueName('missing'), {});
  context.expect(res.status, 'status').toBe(404);
  expectErrorBodyOfVersion(context, res);
});
