/**
 * Names between containers on a user-defined network: dockerd's embedded DNS server (the 127.0.0.11
 * of their /etc/resolv.conf) answers the names of the running containers on the network, their
 * aliases there, and the aliases of the asking container's links. The spec names no resolver (spec/1
 * §2.3 gives Links and the endpoint's Aliases as fields only), so these are docker-level. Each asks
 * with the fixture image's `nslookup`, whose exit status says whether the name was answered.
 */
import { check, type CheckContext, type CheckMeta } from '../../harness/check.ts';
import { exitedContainer, inspectContainer, loggedStdout, startContainer } from '../container-steps.ts';
import { ownNetwork } from './network-steps.ts';

const NAMES: Omit<CheckMeta, 'title'> = { spec: '1 §2.3', level: 'docker', seen: 'dockerd 20.10.24', since: '1.22', tags: ['state'] };

/** A running container on `network` (made with `endpoint` there); its name and its address on the network. */
async function namedOn(context: CheckContext, network: string, endpoint: Record<string, unknown> = {}): Promise<{ name: string; address: string }> {
  const name = context.make.uniqueName('named');
  const id = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['sleep', '300'], HostConfig: { NetworkMode: network }, NetworkingConfig: { EndpointsConfig: { [network]: endpoint } } }, name);
  await startContainer(context, id);
  const shown = await inspectContainer<{ NetworkSettings: { Networks: Record<string, { IPAddress: string }> } }>(context, id);
  return { name, address: shown.NetworkSettings.Networks[network]?.IPAddress ?? '' };
}

/** `nslookup NAME; echo "NAME=$?"` for each name, in a container on `network` (made with `endpoint` there): the exit status of each. */
async function lookedUp(context: CheckContext, network: string, names: string[], endpoint: Record<string, unknown> = {}): Promise<{ statuses: Record<string, string>; output: string }> {
  const script = names.map((name) => `nslookup ${name}; echo "${name}=$?"`).join('; ');
  const id = await exitedContainer(context, { Cmd: ['sh', '-c', script], Tty: false, HostConfig: { NetworkMode: network }, NetworkingConfig: { EndpointsConfig: { [network]: endpoint } } });
  const output = await loggedStdout(context, id);
  const statuses = Object.fromEntries(names.map((name) => [name, new RegExp(`^${name}=(\\d+)$`, 'm').exec(output)?.[1] ?? 'none']));
  return { statuses, output };
}

check('networks.names.container-and-alias', {
  ...NAMES,
  title: 'on a user-defined network, a container resolves another running container there by its name and by its alias; an unknown name is not answered',
}, async (context) => {
  const network = context.make.uniqueName('dns');
  await ownNetwork(context, { Name: network });
  const alias = context.make.uniqueName('alias');
  const target = await namedOn(context, network, { Aliases: [alias] });
  const unknown = context.make.uniqueName('nobody');
  const { statuses, output } = await lookedUp(context, network, [target.name, alias, unknown]);
  context.expect({ statuses, answered: output.includes(target.address) }, `nslookup output:\n${output}`).toEqual({ statuses: { [target.name]: '0', [alias]: '0', [unknown]: '1' }, answered: true });
});

check('networks.names.link-alias', {
  ...NAMES,
  title: 'on a user-defined network, the alias of a link given in the endpoint\'s Links resolves to the linked container there',
}, async (context) => {
  const network = context.make.uniqueName('dns');
  await ownNetwork(context, { Name: network });
  const target = await namedOn(context, network);
  const { statuses, output } = await lookedUp(context, network, ['linked'], { Links: [`${target.name}:linked`] });
  context.expect({ statuses, answered: output.includes(target.address) }, `nslookup output:\n${output}`).toEqual({ statuses: { linked: '0' }, answered: true });
});
