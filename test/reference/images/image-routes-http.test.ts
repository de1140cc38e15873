/** Tag, delete, list and inspect over a started reference, each answer as dockerd 20.10 gave it or the spec asks. */
import { describe, expect, test } from 'vitest';
import { referencePerFile } from './reference-per-file.ts';

const call = referencePerFile();

interface Summary {
  Id: string;
  ParentId?: string;
  RepoTags: string[];
  RepoDigests?: string[];
  Labels?: unknown;
  SharedSize?: number;
}

const idOf = async (name: string) => (await call('GET', `/v1.24/images/${name}/json`)).json<{ Id: string }>().Id;

/** A commit of a new container of `image`, named `name` when given. */
async function committed(image: string, name?: string): Promise<string> {
  const created = await call('POST', '/v1.24/containers/create', { json: { Image: image, Cmd: ['true'] } });
  const query = name ? `&repo=${name}` : '';
  const answer = await call('POST', `/v1.24/commit?container=${created.json().Id as string}${query}`);
  expect((await call('DELETE', `/v1.24/containers/${created.json().Id as string}`)).status).toBe(204);
  return answer.json().Id as string;
}

describe('tag', () => {
  test('201 with no body; the name reaches the same image', async () => {
    const answer = await call('POST', '/v1.24/images/busybox/tag?repo=other&tag=1');
    expect([answer.status, answer.text]).toEqual([201, '']);
    expect(await idOf('other:1')).toBe(await idOf('busybox'));
  });

  test('up to 1.23 a name another image has is a 409 without force and moves with it; from 1.24 it just moves', async () => {
    const original = await idOf('busybox');
    const own = await committed('busybox', 'own');
    const conflict = await call('POST', `/v1.23/images/${own}/tag?repo=busybox`);
    expect(conflict.status).toBe(409);
    expect(conflict.text).toMatch(/^Conflict: Tag busybox:latest is already set to image sha256:/);
    expect((await call('POST', `/v1.23/images/${own}/tag?repo=busybox&force=1`)).status).toBe(201);
    expect(await idOf('busybox')).toBe(own);
    expect((await call('POST', `/v1.24/images/${original}/tag?repo=busybox`)).status).toBe(201);
    expect(await idOf('busybox')).toBe(original);
  });

  test.each([
    ['busybox/tag?repo=BAD', 400, 'invalid reference format: repository name must be lowercase'],
    ['busybox/tag?repo=ok&tag=bad!tag', 400, 'invalid tag format'],
    [`busybox/tag?repo=ok%40sha256:${'a'.repeat(64)}`, 400, 'refusing to create a tag with a digest reference'],
    ['nosuch/tag?repo=x', 404, 'No such image: nosuch:latest'],
  ])('POST /images/%s: %i %s', async (path, status, message) => {
    const answer = await call('POST', `/v1.24/images/${path}`);
    expect([answer.status, answer.json()]).toEqual([status, { message }]);
  });
});

describe('delete', () => {
  test('the records in dockerd order, then the untag and delete events', async () => {
    const child = await committed('busybox', 'child');
    const since = Math.floor(Date.now() / 1000) - 1;
    const answer = await call('DELETE', '/v1.24/images/child');
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual([{ Untagged: 'child:latest' }, { Deleted: child }]);
    const events = (await call('GET', `/v1.24/events?since=${since}&until=${Math.floor(Date.now() / 1000) + 1}&filters=%7B%22type%22%3A%5B%22image%22%5D%7D`)).text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { Action: string; id: string });
    expect(events.slice(-2).map((event) => [event.Action, event.id])).toEqual([
      ['untag', child],
      ['delete', child],
    ]);
  });

  test('409 while a container uses the only name, unless forced; 404 for an unknown image', async () => {
    await call('POST', '/v1.24/containers/create?name=user', { json: { Image: 'busybox', Cmd: ['true'] } });
    const refused = await call('DELETE', '/v1.24/images/busybox');
    expect(refused.status).toBe(409);
    expect(refused.json<{ message: string }>().message).toMatch(/^conflict: unable to remove repository reference "busybox" \(must force\) - container [0-9a-f]{12} is using its referenced image [0-9a-f]{12}$/);
    const forced = await call('DELETE', '/v1.18/images/busybox?force=1');
    expect(forced.json()).toEqual([{ Untagged: 'busybox:latest' }, { Deleted: expect.stringMatching(/^sha256:/) }]);
    const missing = await call('DELETE', '/v1.24/images/nosuch');
    expect([missing.status, missing.json()]).toEqual([404, { message: 'No such image: nosuch:latest' }]);
  });
});

describe('list', () => {
  test('an intermediate image shows with all=1 only; an untagged one carries the <none> placeholders', async () => {
    const middle = await committed('busybox');
    const top = await committed(middle, 'top');
    const ids = async (query: string) => (await call('GET', `/v1.24/images/json${query}`)).json<Summary[]>().map((image) => image.Id);
    expect(await ids('')).not.toContain(middle);
    expect(await ids('?all=1')).toEqual(expect.arrayContaining([middle, top]));
    const dangling = await committed('busybox');
    const listed = (await call('GET', '/v1.24/images/json?digests=1')).json<Summary[]>().find((image) => image.Id === dangling);
    expect(listed).toMatchObject({ RepoTags: ['<none>:<none>'], RepoDigests: ['<none>@<none>'], Labels: null });
  });

  test('before and since by the named image, at 1.18 too; an unknown one is a 404', async () => {
    const busybox = await idOf('busybox');
    const later = await committed('busybox', 'later');
    const ids = async (query: string) => (await call('GET', `/v1.18/images/json?filters=${encodeURIComponent(query)}`)).json<Summary[]>().map((image) => image.Id);
    expect(await ids('{"before":["later"]}')).toEqual([busybox]);
    expect(await ids('{"since":["busybox"]}')).toEqual([later]);
    const missing = await call('GET', `/v1.24/images/json?filters=${encodeURIComponent('{"since":["nosuch"]}')}`);
    expect([missing.status, missing.json()]).toEqual([404, { message: 'No such image: nosuch:latest' }]);
  });

  test('SharedSize and Containers (-1) from 1.25; ParentId only when there is a parent', async () => {
    const child = await committed('busybox', 'child');
    const at = async (version: string) => (await call('GET', `/v${version}/images/json`)).json<Summary[]>();
    expect((await at('1.24'))[0]).not.toHaveProperty('SharedSize');
    expect((await at('1.25')).find((image) => image.Id === child)).toMatchObject({ SharedSize: -1, Containers: -1, ParentId: await idOf('busybox') });
    expect((await at('1.25')).find((image) => image.Id !== child)).not.toHaveProperty('ParentId');
  });
});

test('inspect: RootFS layers, GraphDriver, LastTagTime once tagged, the spec ContainerConfig fields', async () => {
  await call('POST', '/v1.24/images/busybox/tag?repo=again');
  const image = (await call('GET', '/v1.24/images/again/json')).json<Record<string, unknown>>();
  expect(image).toMatchObject({ GraphDriver: { Data: null, Name: 'vfs' }, RootFS: { Type: 'layers', Layers: [expect.stringMatching(/^sha256:/)] } });
  expect((image.Metadata as { LastTagTime: string }).LastTagTime).not.toBe('0001-01-01T00:00:00Z');
  expect(image.ContainerConfig).toMatchObject({ Dns: null, VolumesFrom: '' });
  expect(await call('GET', '/v1.20/images/again/json').then((answer) => answer.json())).not.toHaveProperty('RepoTags');
});
