/**
 * What dockerd makes of a container's networking settings once it runs, where the spec is silent
 * (spec/1 §2.3 names Links, PortBindings and MacAddress; it says nothing of what they do): the ports
 * it publishes in NetworkSettings.Ports and the list's Ports, Config.MacAddress as its endpoint's
 * address, a legacy link's environment, and DELETE /containers/{id}/{alias}?link=1.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import { createContainer, exitedState, inspectContainer, loggedStdout, startContainer, startedContainer } from '../container-steps.ts';

const DOCKER = { level: 'docker', seen: 'dockerd 20.10.24' } as const;

interface NetworkView {
  NetworkSettings: { MacAddress?: string; Ports?: Record<string, { HostIp: string; HostPort: string }[] | null> | null };
  HostConfig: { Links?: string[] | null };
}

/** A host port of the run's own, above the ephemeral range a daemon allocates from. */
function ownHostPort(): string {
  return String(61_000 + Math.floor(Math.random() * 4000));
}

check('containers.inspect.published-ports', {
  ...DOCKER,
  title: 'a running container shows its PortBindings of exposed ports in NetworkSettings.Ports ({HostIp, HostPort}), an exposed port without one as null',
  spec: '1 §2.2',
  since: '1.21',
  tags: ['state'],
}, async (context) => {
  const hostPort = ownHostPort();
  const id = await startedContainer(context, {
    Cmd: ['sleep', '30'],
    ExposedPorts: { '80/tcp': {}, '90/tcp': {} },
    HostConfig: { PortBindings: { '80/tcp': [{ HostIp: '127.0.0.1', HostPort: hostPort }] } },
  });
  const { NetworkSettings } = await inspectContainer<NetworkView>(context, id);
  context.expect(NetworkSettings.Ports, 'inspect NetworkSettings.Ports').toEqual({ '80/tcp': [{ HostIp: '127.0.0.1', HostPort: hostPort }], '90/tcp': null });
});

check('containers.list.published-ports', {
  ...DOCKER,
  title: 'the container list shows a running container\'s published port as {IP, PrivatePort, PublicPort, Type}',
  spec: '1 §2.1',
  since: '1.21',
  tags: ['state'],
}, async (context) => {
  const hostPort = ownHostPort();
  const id = await startedContainer(context, { Cmd: ['sleep', '30'], ExposedPorts: { '80/tcp': {} }, HostConfig: { PortBindings: { '80/tcp': [{ HostIp: '127.0.0.1', HostPort: hostPort }] } } });
  const res = await context.engine.get('/containers/json', { query: { filters: JSON.stringify({ id: [id] }) } });
  context.expect(res.status, 'GET /containers/json status').toBe(200);
  const ports = res.json<{ Id: string; Ports: unknown[] }[]>().find((item) => item.Id === id)?.Ports;
  context.expect(ports, 'the list item\'s Ports').toEqual([{ IP: '127.0.0.1', PrivatePort: 80, PublicPort: Number(hostPort), Type: 'tcp' }]);
});

check('containers.start.mac-address', {
  ...DOCKER,
  title: 'a running container created with Config.MacAddress has that address on its network (NetworkSettings.MacAddress)',
  spec: '1 §2.3',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  // A locally administered address, which no vendor owns.
  const mac = '02:42:ac:11:fe:07';
  const id = await startedContainer(context, { Cmd: ['sleep', '30'], MacAddress: mac });
  context.expect((await inspectContainer<NetworkView>(context, id)).NetworkSettings.MacAddress, 'inspect NetworkSettings.MacAddress').toBe(mac);
});

/** Creates a container linked to `target` as `alias` under a name of the run, which must answer 201; returns its id and name. */
async function linkingContainer(context: CheckContext, target: string, alias: string, cmd: string[]): Promise<{ id: string; name: string }> {
  const name = context.make.uniqueName('app');
  const res = await createContainer(context, { Image: context.session.fixtureImage, Cmd: cmd, HostConfig: { Links: [`${target}:${alias}`] } }, name);
  context.expect(res.status, `POST /containers/create with HostConfig.Links: ${res.describe()}`).toBe(201);
  return { id: res.json<{ Id: string }>().Id, name };
}

/** A running container with SECRET=x in its environment and 5432/tcp exposed, and the name it has. */
async function linkTarget(context: CheckContext): Promise<{ id: string; name: string }> {
  const name = context.make.uniqueName('db');
  const id = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['sleep', '60'], Env: ['SECRET=x'], ExposedPorts: { '5432/tcp': {} } }, name);
  await startContainer(context, id);
  return { id, name };
}

check('containers.links.environment', {
  ...DOCKER,
  title: 'a container linked to a running one with alias db-x starts with DB_X_NAME, DB_X_PORT…, and DB_X_ENV_<var> of the linked container\'s environment',
  spec: '1 §2.3',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const target = await linkTarget(context);
  const { id, name: linking } = await linkingContainer(context, target.name, 'db-x', ['env']);
  await startContainer(context, id);
  await exitedState(context, id);
  const env = (await loggedStdout(context, id)).split('\n');
  context.expect(env, 'the environment').toContain(`DB_X_NAME=/${linking}/db-x`);
  context.expect(env, 'the environment').toContain('DB_X_ENV_SECRET=x');
  context.expect(env, 'the environment').toContain('DB_X_PORT_5432_TCP_PORT=5432');
  context.expect(env.some((entry) => /^DB_X_PORT=tcp:\/\/[0-9.]+:5432$/.test(entry)), `DB_X_PORT=tcp://<address>:5432 among ${env.join(' ')}`).toBe(true);
});

check('containers.links.remove', {
  ...DOCKER,
  title: 'DELETE /containers/{name}/{alias}?link=1 answers 204 and takes the link off HostConfig.Links; a second time it answers 404',
  spec: '1 §4.1',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const target = await linkTarget(context);
  const { id, name: linking } = await linkingContainer(context, target.name, 'db', ['true']);
  const res = await context.engine.delete(`/containers/${linking}/db`, { query: { link: '1' } });
  context.expect(res.status, `DELETE /containers/${linking}/db?link=1: ${res.describe()}`).toBe(204);
  context.expect((await inspectContainer<NetworkView>(context, id)).HostConfig.Links ?? [], 'inspect HostConfig.Links').toEqual([]);
  const again = await context.engine.delete(`/containers/${linking}/db`, { query: { link: '1' } });
  context.expect(again.status, 'the same DELETE again').toBe(404);
});
