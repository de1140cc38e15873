/**
 * The network files dockerd gives every container it starts: /etc/hostname, /etc/hosts and
 * /etc/resolv.conf. The spec names none of them (spec/1 §2.3 gives Hostname, Domainname, Dns, DnsSearch,
 * ExtraHosts and Links as creation fields, not what a container's files hold), so every check here is
 * docker-level, as dockerd 20.10 writes them. Read by the container's own process (`cat`), from its log.
 */
import { check, type CheckContext, type CheckMeta } from '../../harness/check.ts';
import { createContainer, exitedContainer, exitedState, inspectContainer, loggedStdout, startContainer } from '../container-steps.ts';
import { ownNetwork } from '../networks/network-steps.ts';

const FILES: Omit<CheckMeta, 'title'> = { spec: '1 §2.3', level: 'docker', seen: 'dockerd 20.10.24', since: '1.18', tags: ['state'] };

/** What `cat FILE` in a new container made with `config` wrote. */
async function fileSeenBy(context: CheckContext, file: string, config: Record<string, unknown>): Promise<string> {
  return loggedStdout(context, await exitedContainer(context, { Cmd: ['cat', file], Tty: false, ...config }));
}

check('containers.files.hostname', { ...FILES, title: 'a started container\'s /etc/hostname holds its Hostname and a newline' }, async (context) => {
  const text = await fileSeenBy(context, '/etc/hostname', { Hostname: 'files-host' });
  context.expect(text, '/etc/hostname').toBe('files-host\n');
});

check('containers.files.hosts', {
  ...FILES,
  title: 'a started container\'s /etc/hosts names localhost, then each ExtraHosts entry, then its own address with hostname.domainname and hostname',
}, async (context) => {
  const text = await fileSeenBy(context, '/etc/hosts', { Hostname: 'files-host', Domainname: 'example.org', HostConfig: { ExtraHosts: ['extra.example:10.1.2.3'] } });
  const lines = text.split('\n');
  const own = lines.findIndex((line) => /^\d+\.\d+\.\d+\.\d+\tfiles-host\.example\.org files-host$/.test(line));
  context.expect({ localhost: lines[0], extra: lines.indexOf('10.1.2.3\textra.example'), own }, `/etc/hosts: ${JSON.stringify(text)}`).toEqual({ localhost: '127.0.0.1\tlocalhost', extra: 6, own: 7 });
});

check('containers.files.hosts-links', {
  ...FILES,
  title: 'a started container\'s /etc/hosts has a line for each legacy link: the linked container\'s address, the alias, its hostname and its name',
}, async (context) => {
  const childName = context.make.uniqueName('linked');
  const child = await context.make.container({ Image: context.session.fixtureImage, Cmd: ['sleep', '300'], Hostname: 'files-child' }, childName);
  await startContainer(context, child);
  const childAddress = (await inspectContainer<{ NetworkSettings: { IPAddress: string } }>(context, child)).NetworkSettings.IPAddress;
  const created = await createContainer(context, { Image: context.session.fixtureImage, Cmd: ['cat', '/etc/hosts'], Tty: false, HostConfig: { Links: [`${childName}:kid`] } });
  context.expect(created.status, `POST /containers/create with Links: ${created.describe()}`).toBe(201);
  const id = created.json<{ Id: string }>().Id;
  await startContainer(context, id);
  await exitedState(context, id);
  const text = await loggedStdout(context, id);
  context.expect(text.split('\n'), `/etc/hosts: ${JSON.stringify(text)}`).toContain(`${childAddress}\tkid files-child ${childName}`);
});

check('containers.files.resolv-conf-given', {
  ...FILES,
  // DnsOptions is a creation field from 1.21 (spec/1 §4 changes by version)
  since: '1.21',
  title: 'a started container\'s /etc/resolv.conf on the default bridge holds its DnsSearch, Dns and DnsOptions in that order',
}, async (context) => {
  const text = await fileSeenBy(context, '/etc/resolv.conf', { HostConfig: { Dns: ['9.9.9.9'], DnsSearch: ['files.example'], DnsOptions: ['rotate'] } });
  context.expect(text, '/etc/resolv.conf').toBe('search files.example\nnameserver 9.9.9.9\noptions rotate\n');
});

check('containers.files.resolv-conf-user-network', {
  ...FILES,
  since: '1.21',
  title: 'a started container\'s /etc/resolv.conf on a user-defined network names the embedded resolver 127.0.0.11 with options ndots:0',
}, async (context) => {
  const network = context.make.uniqueName('files-net');
  await ownNetwork(context, { Name: network });
  const text = await fileSeenBy(context, '/etc/resolv.conf', { HostConfig: { NetworkMode: network } });
  // the daemon's own search domains and options may come along
  context.expect(text, '/etc/resolv.conf').toMatch(/^(search .+\n)?nameserver 127\.0\.0\.11\noptions (.+ )?ndots:0\n$/);
});
