/**
 * The files dockerd writes for a container as it starts and bind-mounts over the init layer's empty
 * ones (daemon BuildHostnameFile, libnetwork's sandbox etchosts and resolvconf):
 * - /etc/hostname: Config.Hostname and a newline;
 * - /etc/hosts: localhost and the IPv6 names, then HostConfig.ExtraHosts (`name:ip`), then one line
 *   per legacy link (`ip alias hostname name`), then the container's own address with its hostname
 *   (and `hostname.domainname` first when Config.Domainname is set);
 * - /etc/resolv.conf: on a user-defined network the embedded resolver (127.0.0.11, `options ndots:0`);
 *   otherwise HostConfig.Dns, DnsSearch and DnsOptions where given, and the daemon's own resolver
 *   configuration for the rest, without its localhost nameservers (unreachable from a container),
 *   Google's public resolvers when none is left.
 */
import type { Container } from './container.ts';
import { isPredefinedName, networkNamesOf } from './host-config.ts';

export interface NetworkFiles {
  '/etc/hostname': string;
  '/etc/hosts': string;
  '/etc/resolv.conf': string;
}

const LOCAL_HOSTS = ['127.0.0.1\tlocalhost', '::1\tlocalhost ip6-localhost ip6-loopback', 'fe00::0\tip6-localnet', 'ff00::0\tip6-mcastprefix', 'ff02::1\tip6-allnodes', 'ff02::2\tip6-allrouters'];
const EMBEDDED_RESOLVER = '127.0.0.11';
const FALLBACK_NAMESERVERS = ['8.8.8.8', '8.8.4.4'];

/** A resolver configuration's nameservers, search domains and options (resolv.conf's three keywords). */
interface ResolverConfig {
  nameservers: string[];
  search: string[];
  options: string[];
}

function parseResolverConfig(text: string): ResolverConfig {
  const config: ResolverConfig = { nameservers: [], search: [], options: [] };
  for (const line of text.split('\n')) {
    const [keyword, ...values] = line.trim().split(/\s+/);
    if (keyword === 'nameserver' && values[0]) config.nameservers.push(values[0]);
    else if (keyword === 'search' || keyword === 'domain') config.search = values;
    else if (keyword === 'options') config.options.push(...values);
  }
  return config;
}

function resolvConfText({ nameservers, search, options }: ResolverConfig): string {
  return [
    ...(search.length > 0 ? [`search ${search.join(' ')}`] : []),
    ...nameservers.map((address) => `nameserver ${address}`),
    ...(options.length > 0 ? [`options ${options.join(' ')}`] : []),
  ].map((line) => `${line}\n`).join('');
}

const isLocalhost = (address: string) => address.startsWith('127.') || address === '::1';

function resolvConfOf(container: Container, daemonResolvConf: string): string {
  const daemon = parseResolverConfig(daemonResolvConf);
  const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
  const [dns, dnsSearch, dnsOptions] = [strings(container.hostConfig.Dns), strings(container.hostConfig.DnsSearch), strings(container.hostConfig.DnsOptions)];
  const search = dnsSearch.length > 0 ? dnsSearch : daemon.search;
  const options = dnsOptions.length > 0 ? dnsOptions : daemon.options;
  const userDefined = networkNamesOf(container.hostConfig.NetworkMode).some((name) => !isPredefinedName(name));
  if (userDefined) return resolvConfText({ nameservers: [EMBEDDED_RESOLVER], search, options: [...options, 'ndots:0'] });
  const reachable = daemon.nameservers.filter((address) => !isLocalhost(address));
  const nameservers = dns.length > 0 ? dns : reachable.length > 0 ? reachable : FALLBACK_NAMESERVERS;
  return resolvConfText({ nameservers, search, options });
}

function hostsOf(container: Container, linkHosts: readonly string[]): string {
  const extra = ((container.hostConfig.ExtraHosts as string[] | null) ?? []).map((entry) => {
    const at = entry.indexOf(':');
    return `${entry.slice(at + 1)}\t${entry.slice(0, at)}`;
  });
  const address = Object.values(container.networks).find((settings) => settings.IPAddress !== '')?.IPAddress;
  const { Hostname: hostname = '', Domainname: domainname = '' } = container.config;
  const names = domainname === '' ? hostname : `${hostname}.${domainname} ${hostname}`;
  const own = address === undefined ? [] : [`${address}\t${names}`];
  return [...LOCAL_HOSTS, ...extra, ...linkHosts, ...own].map((line) => `${line}\n`).join('');
}

/**
 * The network files of a container that has just joined its networks.
 * @param daemonResolvConf the daemon's resolver configuration (the host's /etc/resolv.conf)
 * @param linkHosts the hosts lines of its legacy links (container-links.ts)
 */
export function networkFilesOf(container: Container, daemonResolvConf: string, linkHosts: readonly string[]): NetworkFiles {
  return {
    '/etc/hostname': `${container.config.Hostname ?? ''}\n`,
    '/etc/hosts': hostsOf(container, linkHosts),
    '/etc/resolv.conf': resolvConfOf(container, daemonResolvConf),
  };
}
