/**
 * POST /containers/{id}/start (spec/1 §4.1, §9): up to 1.23 the body may be a HostConfig that replaces
 * the one the container was created with, from 1.24 a start takes no body (dockerd refuses one with
 * 400, which the row does not list: a docker-level check); at 1.25 it takes detachKeys.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { before } from '../../protocol/versions.ts';
import { containerState, createdContainer, expectStateOf, inspectContainer, type ContainerState } from '../container-steps.ts';

interface Inspected {
  State: ContainerState;
  HostConfig: { Memory: number; Dns: string[] | null };
}

const MIB = 1024 * 1024;
const START_HOST_CONFIG = { Memory: 64 * MIB, Dns: ['10.9.8.7'] };

/** Starts a created `sleep 300` with a HostConfig body at the version under test; the answer's status and what inspect shows after it. */
async function startWithHostConfig(context: CheckContext): Promise<{ status: number; State: ContainerState; HostConfig: Inspected['HostConfig'] }> {
  const id = await createdContainer(context, { Cmd: ['sleep', '300'] });
  const res = await context.engine.post(`/containers/${id}/start`, { json: START_HOST_CONFIG });
  const { State, HostConfig } = await inspectContainer<Inspected>(context, id);
  return { status: res.status, State, HostConfig };
}

check('containers.start.host-config', {
  title: 'a HostConfig in the start body is accepted up to 1.23 (204, the container runs); from 1.24 it is not: the start is refused (400 or 500, the container stays created) or goes on without it',
  spec: '1 §4.1, §9.4, §2.3, §2.2, §3, §7.2',
  quote: ['up to 1.23 an optional HostConfig JSON object is accepted; from 1.24 it is not', '| POST /containers/{id_or_name}/start |', '204 no body | 204, 304, 404, 500 |', 'start no longer accepts HostConfig', '| Memory | integer | limit in bytes |', '| Dns, DnsOptions, DnsSearch | array of string | DnsOptions from 1.21 |', '400 bad parameter', '500 server error', 'Container states visible through the API: created, restarting, running, paused, exited, dead (list filter and State field).', 'Inspect State booleans: Running, Paused, Restarting, OOMKilled, Dead.', 'State object: Error (string), ExitCode (integer), FinishedAt (timestamp), OOMKilled (boolean), Dead (boolean, [1.25]), Paused (boolean), Pid (integer), Restarting (boolean), Running (boolean), StartedAt (timestamp), Status (string, [1.21+], for example running).'],
  since: '1.18',
  tags: ['state', 'error', 'version'],
  covers: ['1:POST /containers/{id_or_name}/start:body:HostConfig', '1:version-rule:1.24:start-refuses-host-config'],
}, async (context) => {
  const { status, State, HostConfig } = await startWithHostConfig(context);
  const what = `start with HostConfig ${JSON.stringify(START_HOST_CONFIG)} at ${context.version}, then inspect: ${JSON.stringify({ status, State, HostConfig: { Memory: HostConfig.Memory, Dns: HostConfig.Dns } })}`;
  if (before(context.version, '1.24')) {
    // "Accepted": the start succeeds. That inspect's HostConfig then shows the body's fields §2.2 does
    // not say ("HostConfig (object)"): that is dockerd's.
    context.expect(status, `${what}: status`).toBe(204);
    expectStateOf(context, State, 'running', 'State after the start');
  } else {
    // "From 1.24 it is not [accepted]": refused (§7.2's 400, or the row's 500) or ignored, never applied.
    const refused = status === 400 || status === 500;
    context.expect(refused || status === 204, `${what}: status 400, 500 or 204`).toBe(true);
    // Not applied: whatever Memory shows (the spec gives it no default), it is not the body's.
    context.expect(HostConfig.Memory, `${what}: Memory not applied`).not.toBe(START_HOST_CONFIG.Memory);
    expectStateOf(context, State, refused ? 'created' : 'running', `State after the ${refused ? 'refused ' : ''}start`);
  }
});

check('containers.start.host-config-400', {
  title: 'from 1.24 a start with a HostConfig body answers 400 and the container stays created',
  spec: '1 §4.1',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.24',
  tags: ['error', 'version'],
}, async (context) => {
  const { status, State } = await startWithHostConfig(context);
  context.expect(status, 'start status').toBe(400);
  expectStateOf(context, State, 'created', 'State after the refused start');
});

check('containers.start.detach-keys', {
  title: 'a start with detachKeys=ctrl-x (the key sequence that detaches a later attach) answers 204 at 1.25 and the container runs',
  spec: '1 §4.1, §2.2, §3',
  quote: ['detachKeys ([1.25]: single character a-Z or `ctrl-<value>`, value one of a-z, @, ^, [, comma, or _)', '| POST /containers/{id_or_name}/start |', '204 no body | 204, 304, 404, 500 |', 'Container states visible through the API: created, restarting, running, paused, exited, dead (list filter and State field).', 'Inspect State booleans: Running, Paused, Restarting, OOMKilled, Dead.', 'State object: Error (string), ExitCode (integer), FinishedAt (timestamp), OOMKilled (boolean), Dead (boolean, [1.25]), Paused (boolean), Pid (integer), Restarting (boolean), Running (boolean), StartedAt (timestamp), Status (string, [1.21+], for example running).'],
  since: '1.25',
  tags: ['state', 'version'],
  covers: ['1:POST /containers/{id_or_name}/start:query:detachKeys', '1:version-rule:1.25:detach-keys'],
}, async (context) => {
  const { engine, expect, make, session } = context;
  const id = await make.container({ Image: session.fixtureImage, Cmd: ['sleep', '300'] });
  const res = await engine.post(`/containers/${id}/start`, { query: { detachKeys: 'ctrl-x' } });
  expect(res.status, `POST /containers/{id}/start?detachKeys=ctrl-x status: ${res.text().trim()}`).toBe(204);
  expectStateOf(context, await containerState(context, id), 'running', 'State after the start');
});
