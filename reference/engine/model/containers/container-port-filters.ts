/**
 * The container list's `publish` and `expose` filters and `is-task`, as dockerd 20.10 applies them
 * at every version: a port filter is `<port>[/<proto>]` or `<start>-<end>[/<proto>]` (tcp when no
 * protocol is given); `expose` holds for a container whose ports (the list's Ports, while it runs)
 * hold one of those as their private port, `publish` for one that publishes one of them on the host
 * (the public port). `is-task` says whether the container runs a swarm task. A value that is no port
 * or range is the client's mistake: 400 in dockerd's words (dockerd: 500).
 */
import type { Container } from './container.ts';
import { InvalidParameterError } from '../common/errors.ts';

export interface PortListFilters {
  publish?: string[];
  expose?: string[];
  'is-task'?: string[];
}

/** A filter's values as the `port/proto` keys they stand for; undefined when the filter is not given. */
export function portFilter(name: 'publish' | 'expose', values: string[] | undefined): Set<string> | undefined {
  if (values === undefined || values.length === 0) return undefined;
  const ports = new Set<string>();
  for (const value of values) {
    if (value.includes(':')) throw new InvalidParameterError(`filter for '${name}' should not contain ':': ${value}`);
    const slash = value.indexOf('/');
    const [range, proto] = slash < 0 ? [value, 'tcp'] : [value.slice(0, slash), value.slice(slash + 1)];
    const [start, end] = portRange(range, (why) => new InvalidParameterError(`error while looking up for ${name} ${value}: ${why}`));
    for (let port = start; port <= end; port++) ports.add(`${port}/${proto}`);
  }
  return ports;
}

/** Go's nat.ParsePortRange: one port or `start-end`, each an unsigned 16-bit number. */
function portRange(text: string, refuse: (why: string) => Error): [number, number] {
  if (text === '') throw refuse('empty string specified for ports');
  const parts = text.includes('-') ? text.split('-', 2) : [text, text];
  const [start, end] = parts.map((part) => {
    if (!/^\d+$/.test(part)) throw refuse(`strconv.ParseUint: parsing ${JSON.stringify(part)}: invalid syntax`);
    if (Number(part) > 65_535) throw refuse(`strconv.ParseUint: parsing ${JSON.stringify(part)}: value out of range`);
    return Number(part);
  }) as [number, number];
  if (end < start) throw refuse(`invalid range specified for port: ${text}`);
  return [start, end];
}

export function matchesPortFilters(container: Container, publish: Set<string> | undefined, expose: Set<string> | undefined): boolean {
  const ports = Object.entries(container.publishedPorts ?? {});
  const exposed = ports.map(([port]) => port);
  const published = ports.flatMap(([port, bindings]) => (bindings ?? []).map((binding) => `${binding.HostPort}/${port.split('/')[1] ?? 'tcp'}`));
  return (publish === undefined || published.some((port) => publish.has(port))) && (expose === undefined || exposed.some((port) => expose.has(port)));
}

/** `is-task`: true or false (dockerd's exact words), else 400. */
export function taskFilter(values: string[] | undefined): boolean | undefined {
  if (values === undefined || values.length === 0) return undefined;
  if (values.includes('true')) return true;
  if (values.includes('false')) return false;
  throw new InvalidParameterError(`Invalid filter 'is-task=[${values.join(' ')}]'`);
}

export function matchesTaskFilter(container: Container, isTask: boolean | undefined): boolean {
  return isTask === undefined || isTask === Object.hasOwn(container.config.Labels, 'com.docker.swarm.task.id');
}
