/**
 * The engine's registry parts against the fixture registry and token service of the same reference:
 * POST /auth, a push and a pull with X-Registry-Auth (password, and identity token from 1.25), a pull
 * of something absent, credentials refused, and hosts other than the loopback left unreachable.
 */
import { describe, expect, it } from 'vitest';
import { alice, authHeader, messagesOf, PASSWORD_AUTH, useRegistryReference } from './registry-fixtures.ts';

const served = useRegistryReference();

async function tagBusybox(name: string): Promise<void> {
  const [repo, tag] = name.split(/:(?=[^:/]+$)/);
  expect((await served.call('POST', `/v1.25/images/busybox:latest/tag?repo=${repo}&tag=${tag}`)).status).toBe(201);
}

describe('POST /auth', () => {
  it('logs in with a password and gives the refresh token as IdentityToken', async () => {
    const answer = await served.call('POST', '/v1.25/auth', { json: { username: alice.username, password: alice.password, serveraddress: served.host } });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ Status: 'Login Succeeded', IdentityToken: expect.stringMatching(/^.{32,}$/) });
  });

  it('answers 500 for a wrong password, naming the refusal', async () => {
    const answer = await served.call('POST', '/v1.25/auth', { json: { username: alice.username, password: 'wrong', serveraddress: served.host } });
    expect(answer.status).toBe(500);
    expect(answer.json<{ message: string }>().message).toMatch(/unauthorized/);
  });

  it('drops credentials written into serveraddress: the login goes to the host, and no answer repeats them', async () => {
    const answer = await served.call('POST', '/v1.25/auth', { json: { username: alice.username, password: alice.password, serveraddress: `http://someone:embedded-secret@${served.host}/` } });
    expect(answer.status).toBe(200);
    const refused = await served.call('POST', '/v1.25/auth', { json: { username: 'u', password: 'p', serveraddress: 'https://someone:embedded-secret@registry.example.com/v2/' } });
    expect(refused.status).toBe(500);
    expect(refused.text).not.toContain('embedded-secret');
  });

  it('cannot reach a registry off the loopback', async () => {
    const answer = await served.call('POST', '/v1.25/auth', { json: { username: 'u', password: 'p', serveraddress: 'registry.example.com' } });
    expect([answer.status, answer.json<{ message: string }>().message]).toEqual([500, expect.stringContaining('no such host')]);
  });
});

describe('push and pull', () => {
  it('pushes an image, then pulls it back by tag after it was removed', async () => {
    const name = `${served.host}/alice/app:v1`;
    await tagBusybox(name);
    const pushed = await served.call('POST', `/v1.25/images/${served.host}/alice/app/push?tag=v1`, { headers: { 'X-Registry-Auth': PASSWORD_AUTH } });
    const pushMessages = messagesOf(pushed.text);
    expect(pushMessages[0]).toEqual({ status: `The push refers to repository [${served.host}/alice/app]` });
    expect(pushMessages.some((message) => 'error' in message)).toBe(false);
    const aux = pushMessages.at(-1)?.aux as { Tag: string; Digest: string; Size: number };
    expect(aux).toMatchObject({ Tag: 'v1', Digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });

    expect((await served.call('DELETE', `/v1.25/images/${name}`)).status).toBe(200);
    const pulled = await served.call('POST', `/v1.25/images/create?fromImage=${served.host}/alice/app&tag=v1`, { headers: { 'X-Registry-Auth': PASSWORD_AUTH } });
    const pullMessages = messagesOf(pulled.text);
    expect(pullMessages[0]).toEqual({ status: 'Pulling from alice/app', id: 'v1' });
    expect(pullMessages.slice(-2)).toEqual([{ status: `Digest: ${aux.Digest}` }, { status: `Status: Downloaded newer image for ${name}` }]);
    const inspect = (await served.call('GET', `/v1.25/images/${name}/json`)).json<{ RepoDigests: string[] }>();
    expect(inspect.RepoDigests).toContain(`${served.host}/alice/app@${aux.Digest}`);
  });

  it('pulls with the identity token of a login at 1.25', async () => {
    const name = `${served.host}/alice/token:v1`;
    await tagBusybox(name);
    await served.call('POST', `/v1.25/images/${served.host}/alice/token/push?tag=v1`, { headers: { 'X-Registry-Auth': PASSWORD_AUTH } });
    const login = (await served.call('POST', '/v1.25/auth', { json: { username: alice.username, password: alice.password, serveraddress: served.host } })).json<{ IdentityToken: string }>();
    const tokenAuth = authHeader({ identitytoken: login.IdentityToken });
    const pulled = await served.call('POST', `/v1.25/images/create?fromImage=${served.host}/alice/token&tag=v1`, { headers: { 'X-Registry-Auth': tokenAuth } });
    expect([pulled.status, messagesOf(pulled.text).at(-1)]).toEqual([200, { status: `Status: Image is up to date for ${name}` }]);
    // before 1.25 the identity token is not read: the pull is anonymous, and the registry refuses it
    const anonymous = await served.call('POST', `/v1.24/images/create?fromImage=${served.host}/alice/token&tag=v1`, { headers: { 'X-Registry-Auth': tokenAuth } });
    expect(anonymous.status).toBe(500);
  });

  it('answers 500 for a tag the registry lacks, before any progress', async () => {
    const answer = await served.call('POST', `/v1.25/images/create?fromImage=${served.host}/alice/app&tag=absent`, { headers: { 'X-Registry-Auth': PASSWORD_AUTH } });
    expect([answer.status, answer.json<{ message: string }>().message]).toEqual([500, `manifest for ${served.host}/alice/app:absent not found: manifest unknown: manifest unknown`]);
  });

  it('ends a push with an error when the credentials are refused', async () => {
    await tagBusybox(`${served.host}/alice/refused:v1`);
    const wrong = authHeader({ username: alice.username, password: 'wrong' });
    const pushed = await served.call('POST', `/v1.25/images/${served.host}/alice/refused/push?tag=v1`, { headers: { 'X-Registry-Auth': wrong } });
    expect(pushed.status).toBe(200);
    expect(messagesOf(pushed.text).at(-1)).toMatchObject({ error: expect.stringContaining('unauthorized') });
  });

  it('leaves Docker Hub unreachable', async () => {
    const answer = await served.call('POST', '/v1.25/images/create?fromImage=busybox&tag=1.36');
    expect([answer.status, answer.json<{ message: string }>().message]).toEqual([500, 'Get "https://registry-1.docker.io/v2/": dial tcp: lookup registry-1.docker.io: no such host']);
  });
});
