/**
 * The tarball endpoints over a real server: content types, the JSON message stream of a load (its
 * progress objects, `quiet`, an error in the stream with status 200), and not-found answers per
 * version.
 */
import { describe, expect, test } from 'vitest';
import { writeTar } from '../../../reference/engine/filesystem/tar-io.ts';
import type { Answer } from '../http-client.ts';
import { referencePerFile } from './reference-per-file.ts';
import { tarballMembers } from './tarball-images.ts';

const call = referencePerFile();

const messages = (answer: Answer) => answer.text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
const loadTarball = (body: Buffer, query = '', version = '/v1.24') => call('POST', `${version}/images/load${query}`, { body, headers: { 'content-type': 'application/x-tar' } });

async function savedBusyboxWithoutIt(): Promise<Buffer> {
  const saved = await call('GET', '/v1.24/images/busybox/get');
  expect(saved.status).toBe(200);
  expect((await call('DELETE', '/v1.24/images/busybox')).status).toBe(200);
  return saved.body;
}

describe('GET /images/{name}/get and /images/get', () => {
  test('answer 200 application/x-tar holding the image', async () => {
    for (const path of ['/v1.18/images/busybox:latest/get', '/v1.25/images/get?names=busybox&names=busybox:latest']) {
      const answer = await call('GET', path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers['content-type']).toBe('application/x-tar');
      expect([...(await tarballMembers(answer.body)).keys()]).toContain('repositories');
    }
  });

  test('an unknown name is 404, plain text before 1.24 and JSON from 1.24', async () => {
    const old = await call('GET', '/v1.23/images/nosuch/get');
    expect([old.status, old.text]).toEqual([404, 'No such image: nosuch\n']);
    const current = await call('GET', '/v1.24/images/get?names=busybox&names=nosuch:1');
    expect([current.status, current.json()]).toEqual([404, { message: 'reference does not exist' }]);
  });
});

describe('POST /images/load', () => {
  test('answers a JSON stream: progress objects for each layer read, then the confirmation', async () => {
    const answer = await loadTarball(await savedBusyboxWithoutIt());
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    const stream = messages(answer);
    expect(stream.at(-1)).toEqual({ stream: 'Loaded image: busybox:latest\n' });
    const progress = stream.slice(0, -1);
    expect(progress.length).toBeGreaterThan(1);
    for (const message of progress) {
      expect(Object.keys(message)).toEqual(['status', 'progressDetail', 'progress', 'id']);
      expect(message.status).toBe('Loading layer');
      expect(message.id).toMatch(/^[0-9a-f]{12}$/);
    }
    expect(progress.at(-1)?.progress).toMatch(/^\[={50}>\] +\S+\/\S+$/);
    // Go's encoder escapes `>`: a byte-level client sees what dockerd sends
    expect(answer.text).toContain('\\u003e]');
  });

  test('quiet: only the confirmation, at every version', async () => {
    const tarball = await savedBusyboxWithoutIt();
    for (const version of ['/v1.18', '/v1.25']) {
      expect(messages(await loadTarball(tarball, '?quiet=1', version))).toEqual([{ stream: 'Loaded image: busybox:latest\n' }]);
    }
  });

  test('quiet is off unless asked for (the spec`s default)', async () => {
    const stream = messages(await loadTarball(await savedBusyboxWithoutIt()));
    expect(stream.some((message) => message.status === 'Loading layer')).toBe(true);
  });

  test('a malformed tarball: 200, its error in the stream, and no image added', async () => {
    const before = (await call('GET', '/v1.24/images/json?all=1')).json<unknown[]>();
    const answer = await loadTarball(await writeTar([{ header: { name: 'manifest.json' }, data: Buffer.from('[{"Config":"gone.json"}]') }]));
    expect(answer.status).toBe(200);
    expect(messages(answer)).toEqual([{ errorDetail: { message: 'open gone.json: no such file or directory' }, error: 'open gone.json: no such file or directory' }]);
    expect((await call('GET', '/v1.24/images/json?all=1')).json()).toEqual(before);
  });

  test('save → delete → load gives back the same id and tag', async () => {
    const id = (await call('GET', '/v1.24/images/busybox/json')).json().Id;
    const tarball = await savedBusyboxWithoutIt();
    await loadTarball(tarball, '?quiet=1');
    expect((await call('GET', '/v1.24/images/busybox:latest/json')).json().Id).toBe(id);
  });
});
