/** POST /commit over a started reference, each answer as dockerd 20.10 gave it (probed with curl). */
import { expect, test } from 'vitest';
import { writeTar } from '../../../reference/engine/filesystem/tar-io.ts';
import { referencePerFile } from './reference-per-file.ts';

const call = referencePerFile();

interface Inspect {
  Id: string;
  Parent: string;
  Container: string;
  Comment: string;
  Author: string;
  RepoTags: string[];
  Size: number;
  Config: Record<string, unknown>;
  ContainerConfig: Record<string, unknown>;
}

async function container(name: string, body: Record<string, unknown>): Promise<string> {
  const created = await call('POST', `/v1.24/containers/create?name=${name}`, { json: { Image: 'busybox', ...body } });
  expect(created.status).toBe(201);
  return created.json().Id as string;
}

async function events(since: number): Promise<Array<{ Type: string; Action: string; Actor: { Attributes: Record<string, string> } }>> {
  const answer = await call('GET', `/v1.24/events?since=${since}&until=${Math.floor(Date.now() / 1000) + 1}`);
  return answer.text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
}

test('the body config over the changes over the container config; the writable layer on the container image', async () => {
  const id = await container('src', { Cmd: ['sh', '-c', 'sleep 300'], Labels: { own: '1' }, Env: ['E=1'], ExposedPorts: { '22/tcp': {} } });
  const tar = await writeTar([{ header: { name: 'hello', mode: 0o644, size: 3 }, data: Buffer.from('hi\n') }]);
  expect((await call('PUT', '/v1.24/containers/src/archive?path=/', { body: tar })).status).toBe(200);
  const since = Math.floor(Date.now() / 1000) - 1;
  const answer = await call(
    'POST',
    '/v1.24/commit?container=src&repo=committed&tag=v2&comment=a%20comment&author=Me%20%3Cme@x%3E&changes=ENV%20F%3D2&changes=EXPOSE%2080',
    { json: { Cmd: ['cat', '/hello'], Labels: { fromBody: 'x' } } },
  );
  expect(answer.status).toBe(201);
  const imageId = answer.json().Id as string;
  const busybox = (await call('GET', '/v1.24/images/busybox/json')).json<Inspect>();
  const image = (await call('GET', '/v1.24/images/committed:v2/json')).json<Inspect>();
  expect(image).toMatchObject({ Id: imageId, Parent: busybox.Id, Container: id, Comment: 'a comment', Author: 'Me <me@x>', RepoTags: ['committed:v2'], Size: busybox.Size + 3 });
  expect(image.Config).toMatchObject({
    Hostname: '',
    ExposedPorts: { '22/tcp': {}, '80/tcp': {} },
    Env: ['F=2', 'E=1', 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
    Cmd: ['cat', '/hello'],
    Image: '',
    Labels: { fromBody: 'x', own: '1' },
  });
  expect(image.ContainerConfig).toMatchObject({ Hostname: id.slice(0, 12), Cmd: ['sh', '-c', 'sleep 300'], Image: 'busybox', ExposedPorts: { '22/tcp': {} } });
  const history = (await call('GET', '/v1.25/images/committed:v2/history')).json<Array<{ CreatedBy: string; Comment: string }>>();
  expect(history[0]).toMatchObject({ CreatedBy: 'sh -c sleep 300', Comment: 'a comment' });
  const seen = (await events(since)).filter((event) => event.Action === 'tag' || event.Action === 'commit');
  expect(seen.map((event) => [event.Type, event.Action, event.Actor.Attributes])).toEqual([
    ['image', 'tag', { fromBody: 'x', own: '1', name: 'committed:v2' }],
    ['container', 'commit', { own: '1', image: 'busybox', name: 'src', comment: 'a comment', imageID: imageId, imageRef: 'committed:v2' }],
  ]);
});

test('a running container is paused for the commit; without a body the config is the container config; no change is an empty layer', async () => {
  await container('running', { Cmd: ['sleep', '300'] });
  expect((await call('POST', '/v1.24/containers/running/start')).status).toBe(204);
  const since = Math.floor(Date.now() / 1000) - 1;
  const answer = await call('POST', '/v1.24/commit?container=running');
  expect(answer.status).toBe(201);
  expect((await events(since)).filter((event) => event.Type === 'container').map((event) => event.Action).slice(-3)).toEqual(['pause', 'commit', 'unpause']);
  const image = (await call('GET', `/v1.24/images/${answer.json().Id as string}/json`)).json<Inspect & { RepoTags: string[] }>();
  expect(image.RepoTags).toEqual([]);
  expect(image.Config).toMatchObject({ Cmd: ['sleep', '300'], Image: 'busybox' });
  const history = (await call('GET', `/v1.25/images/${image.Id}/history`)).json<Array<{ Size: number }>>();
  expect(history[0]?.Size).toBe(0);
  const unpaused = await call('POST', '/v1.24/commit?container=running&pause=0');
  expect(unpaused.status).toBe(201);
  expect((await call('GET', '/v1.24/containers/running/json')).json()).toMatchObject({ State: { Running: true, Paused: false } });
});

test.each([
  ['container=nosuch', 404, 'No such container: nosuch'],
  ['', 400, 'invalid name or ID supplied: ""'],
  ['container=cc&changes=RUN%20x', 400, 'run is not a valid change command'],
  ['container=cc&repo=Bad', 400, 'invalid reference format: repository name must be lowercase'],
  [`container=cc&repo=${'a'.repeat(300)}`, 400, 'repository name must not be more than 255 characters'],
])('commit?%s answers %i %s', async (query, status, message) => {
  await container('cc', { Cmd: ['true'] });
  const answer = await call('POST', `/v1.24/commit?${query}`);
  expect([answer.status, answer.json()]).toEqual([status, { message }]);
});

test("a HEALTHCHECK change takes the parts it leaves empty from the container's healthcheck (dockerd 20.10's merge)", async () => {
  await container('healthy', { Cmd: ['true'], Healthcheck: { Test: ['CMD-SHELL', 'echo ok'], Interval: 5e9, Timeout: 3e9, Retries: 4 } });
  const answer = await call('POST', `/v1.24/commit?container=healthy&repo=committed-health&changes=${encodeURIComponent('HEALTHCHECK --retries=9 CMD x')}`);
  expect(answer.status).toBe(201);
  const image = (await call('GET', '/v1.24/images/committed-health/json')).json<Inspect>();
  expect(image.Config.Healthcheck).toEqual({ Test: ['CMD-SHELL', 'x'], Interval: 5e9, Timeout: 3e9, Retries: 9 });
});
