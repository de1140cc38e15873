/**
 * Legacy links (HostConfig.Links, spec/1 §2.3: `container_name:alias`) as dockerd 20.10 keeps and uses
 * them: shown as `/<child>:/<parent>/<alias>`; at each start the linked container must run, and the
 * process gets its address, ports and environment as `<ALIAS>_PORT…`, `<ALIAS>_NAME` and
 * `<ALIAS>_ENV_…` variables (daemon/links: Link.ToEnv, without its bulk `_START`/`_END` entries for
 * runs of consecutive ports) and a line of its /etc/hosts; DELETE /containers/{parent}/{alias}?link=1 takes a link off.
 */
import type { Container } from './container.ts';
import { EngineError, InvalidParameterError, NotFoundError } from '../common/errors.ts';

/** What links need of the container store (which itself canonicalises links as it creates). */
export interface ContainerFinder {
  find(reference: string): Container;
}

interface Link {
  /** the linked container's name, with its slash */
  child: string;
  alias: string;
}

const withSlash = (name: string) => (name.startsWith('/') ? name : `/${name}`);

/** `name:alias`, `name` (its own alias) or dockerd's `/name:/parent/alias`. */
function parseLink(entry: string): Link {
  const [child = '', alias] = entry.split(':', 2);
  return { child: withSlash(child), alias: (alias ?? child).split('/').at(-1) ?? '' };
}

/** dockerd's form of a container's links, `/<child>:/<parent>/<alias>`. */
export function canonicalLinks(parentName: string, links: readonly string[]): string[] {
  return links.map((entry) => {
    const { child, alias } = parseLink(entry);
    return `${child}:${parentName}/${alias}`;
  });
}

/** `80/tcp` before `80/udp`, by port number: dockerd's nat.Sort as links use it. */
function sortedPorts(exposed: Record<string, object> | undefined): [port: string, proto: string][] {
  return Object.keys(exposed ?? {})
    .map((key) => key.split('/', 2) as [string, string?])
    .map(([port, proto = 'tcp']): [string, string] => [port, proto])
    .sort(([a, aProto], [b, bProto]) => Number(a) - Number(b) || (aProto < bProto ? -1 : aProto > bProto ? 1 : 0));
}

/** Link.ToEnv for one link. */
function linkVariables(parentName: string, link: Link, child: Container): string[] {
  const prefix = link.alias.toUpperCase().replaceAll('-', '_');
  const ip = child.networks.bridge?.IPAddress ?? '';
  const ports = sortedPorts(child.config.ExposedPorts);
  const env: string[] = [];
  const [first] = ports;
  if (first) env.push(`${prefix}_PORT=${first[1]}://${ip}:${first[0]}`);
  for (const [port, proto] of ports) {
    const name = `${prefix}_PORT_${port}_${proto.toUpperCase()}`;
    env.push(`${name}=${proto}://${ip}:${port}`, `${name}_ADDR=${ip}`, `${name}_PORT=${port}`, `${name}_PROTO=${proto}`);
  }
  env.push(`${prefix}_NAME=${parentName}/${link.alias}`);
  for (const entry of child.config.Env) {
    const at = entry.indexOf('=');
    if (at < 0) continue;
    const name = entry.slice(0, at);
    // dockerd leaves out what a build sets for every image
    if (name !== 'HOME' && name !== 'PATH') env.push(`${prefix}_ENV_${name}=${entry.slice(at + 1)}`);
  }
  return env;
}

/** The containers the container's links name; a linked container that does not run refuses the start. */
function linkedContainers(container: Container, store: ContainerFinder): { link: Link; child: Container }[] {
  const links = (container.hostConfig.Links as string[] | null) ?? [];
  return links.map((entry) => {
    const link = parseLink(entry);
    let child: Container | undefined;
    try {
      child = store.find(link.child);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
    if (!child?.state.Running) throw new EngineError(`Cannot link to a non running container: ${link.child} AS ${container.name}/${link.alias}`);
    return { link, child };
  });
}

/** The variables the container's links give its processes. */
export function linkEnvironment(container: Container, store: ContainerFinder): string[] {
  return linkedContainers(container, store).flatMap(({ link, child }) => linkVariables(container.name, link, child));
}

/** The container's /etc/hosts lines for its links: the linked container's address, the alias, its hostname, and its name unless that is the alias. */
export function linkHosts(container: Container, store: ContainerFinder): string[] {
  return linkedContainers(container, store).map(({ link, child }) => {
    const name = child.name.replace(/^\//, '');
    const names = [link.alias, child.config.Hostname ?? '', ...(link.alias === name ? [] : [name])];
    return `${child.networks.bridge?.IPAddress ?? ''}\t${names.join(' ')}`;
  });
}

/** DELETE /containers/{parent}/{alias}?link=1: `name` is `<parent>/<alias>`. */
export function removeLink(store: ContainerFinder, name: string): void {
  const full = withSlash(name);
  const at = full.lastIndexOf('/');
  const parentName = full.slice(0, at);
  if (parentName === '') throw new InvalidParameterError('Conflict, cannot remove the default link name of the container');
  let parent: Container;
  try {
    parent = store.find(parentName);
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError(`No such container: ${name}`);
    throw error;
  }
  const alias = full.slice(at + 1);
  const links = (parent.hostConfig.Links as string[] | null) ?? [];
  const kept = links.filter((entry) => parseLink(entry).alias !== alias);
  if (kept.length === links.length) throw new NotFoundError(`No such container: ${name}`);
  parent.hostConfig.Links = kept.length > 0 ? kept : null;
}
