/**
 * POST /containers/{id}/start (spec/1 §4.1, §9): up to 1.23 the body may be a HostConfig that replaces
 * the one the container was created with, from 1.24 a start takes no body; at 1.25 it takes detachKeys.
 */
import { check } from '../../harness/check.ts';
import { before } from '../../harness/versions.ts';
import { containerState, inspectContainer } from '../container-steps.ts';

const MIB = 1024 * 1024;

interface Inspected {
  State: { Running: boolean };
  HostConfig: { Memory: number; Dns: string[] | null };
}

check('containers.start.host-config', {
  title: 'a HostConfig in the start body is applied up to 1.23 (inspect shows it) and refused with 400 from 1.24 (the container stays created)',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['state', 'error', 'version'],
  covers: ['1:POST /containers/{id_or_name}/start:body:HostConfig', '1:version-rule:1.24:start-refuses-host-config'],
}, async (context) => {
  const { engine, expect, make, session, version } = context;
  const id = await make.container({ Image: session.fixtureImage, Cmd: ['sleep', '300'] });
  const hostConfig = { Memory: 64 * MIB, Dns: ['10.9.8.7'] };
  const res = await engine.post(`/containers/${id}/start`, { json: hostConfig });
  const { State, HostConfig } = await inspectContainer<Inspected>(context, id);
  const what = `start with HostConfig ${JSON.stringify(hostConfig)} at ${version}, then inspect`;
  if (before(version, '1.24')) {
    const seen = { status: res.status, Running: State.Running, Memory: HostConfig.Memory, Dns: HostConfig.Dns };
    expect(seen, `${what}: ${JSON.stringify(seen)}`).toEqual({ status: 204, Running: true, ...hostConfig });
  } else {
    const seen = { status: res.status, Running: State.Running, Memory: HostConfig.Memory };
    expect(seen, `${what}: ${JSON.stringify(seen)}`).toEqual({ status: 400, Running: false, Memory: 0 });
  }
});

check('containers.start.detach-keys', {
  title: 'a start with detachKeys=ctrl-x (the key sequence that detaches a later attach) answers 204 at 1.25 and the container runs',
  spec: '1 §4.1',
  since: '1.25',
  tags: ['state', 'version'],
  covers: ['1:POST /containers/{id_or_name}/start:query:detachKeys', '1:version-rule:1.25:detach-keys'],
}, async (context) => {
  const { engine, expect, make, session } = context;
  const id = await make.container({ Image: session.fixtureImage, Cmd: ['sleep', '300'] });
  const res = await engine.post(`/containers/${id}/start`, { query: { detachKeys: 'ctrl-x' } });
  expect(res.status, `POST /containers/{id}/start?detachKeys=ctrl-x status: ${res.text().trim()}`).toBe(204);
  expect((await containerState(context, id)).Running, 'State.Running after the start').toBe(true);
});
