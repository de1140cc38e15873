/**
 * What a container mounts, read from its create request as dockerd reads it: each HostConfig.Binds
 * entry (`source:destination[:mode]`, a source that is an absolute path a host directory, else a
 * volume name; a bare `destination` an anonymous volume), then each Config.Volumes path no bind
 * covers (an anonymous volume). Modes are comma-separated: ro or rw, z or Z, nocopy, a propagation
 * and a consistency. Only the rules here; the volumes themselves are made by container-volumes.ts.
 */
import { InvalidParameterError } from '../common/errors.ts';
import type { LayerIndex } from '../../filesystem/layer-index.ts';
import type { Volume } from '../volumes/volume.ts';


/** One mount of a container: its spec, with the volume it mounts, or for a bind the simulated host directory. */
export interface ContainerMount extends MountSpec {
  volume?: Volume;
  hostFiles?: LayerIndex;
}
export interface MountSpec {
  type: 'volume' | 'bind';
  /** a bind's host path or a named volume's name; '' for an anonymous volume */
  source: string;
  destination: string;
  /** as given; dockerd shows `z` for a named volume given none */
  mode: string;
  rw: boolean;
  /** a bind's, `rprivate` unless the mode says; a volume has none */
  propagation: string;
  /** whether an empty volume is filled with what the image holds at the destination */
  copyData: boolean;
}

const PROPAGATIONS = ['private', 'rprivate', 'shared', 'rshared', 'slave', 'rslave'];

/** The words a mode may hold, by kind (the last, consistency, means nothing on Linux): at most one of each kind. */
const MODE_KINDS: string[][] = [['rw', 'ro'], ['z', 'Z'], ['nocopy'], PROPAGATIONS, ['consistent', 'cached', 'delegated']];

function isValidMode(mode: string): boolean {
  const words = mode.split(',');
  if (!words.every((word) => MODE_KINDS.some((kind) => kind.includes(word)))) return false;
  return MODE_KINDS.every((kind) => words.filter((word) => kind.includes(word)).length <= 1);
}

/** A bind the client wrote wrong: a bad parameter (400 at create, spec/1 §4.1; dockerd answers 500). */
function invalidSpec(raw: string, reason?: string): InvalidParameterError {
  return new InvalidParameterError(`invalid volume specification: '${raw}'${reason ? `: ${reason}` : ''}`);
}

/** One Binds entry. */
export function parseBind(raw: string): MountSpec {
  const parts = raw.split(':');
  let source = '';
  let destination: string;
  let mode = '';
  if (parts.length === 1) destination = parts[0] ?? '';
  else if (parts.length === 2) {
    // `/foo:rw` is a destination with a mode, which a volume cannot have
    if (isValidMode(parts[1] ?? '')) throw invalidSpec(raw);
    [source = '', destination = ''] = parts;
  } else if (parts.length === 3) {
    [source = '', destination = '', mode = ''] = parts;
    if (!isValidMode(mode)) throw new InvalidParameterError(`invalid mode: ${mode}`);
  } else throw invalidSpec(raw);
  const type = source.startsWith('/') ? 'bind' : 'volume';
  if (destination === '') throw invalidSpec(raw);
  if (!destination.startsWith('/')) {
    throw invalidSpec(raw, `invalid mount config for type "${type}": invalid mount path: '${destination}' mount path must be absolute`);
  }
  const words = mode.split(',');
  return {
    type,
    source,
    destination: normalised(destination),
    mode: type === 'volume' && mode === '' ? 'z' : mode,
    rw: !words.includes('ro'),
    propagation: type === 'bind' ? (words.find((word) => PROPAGATIONS.includes(word)) ?? 'rprivate') : '',
    copyData: !words.includes('nocopy'),
  };
}

/** An anonymous volume of Config.Volumes (the image's included). */
function anonymousVolume(destination: string): MountSpec {
  return { type: 'volume', source: '', destination: normalised(destination), mode: '', rw: true, propagation: '', copyData: true };
}

/** Every mount of a container, binds first; a destination mounted twice by the binds is refused. */
export function mountSpecsOf(binds: readonly string[], volumes: Record<string, object> | null): MountSpec[] {
  const specs = binds.map(parseBind);
  const destinations = new Set<string>();
  for (const { destination } of specs) {
    if (destinations.has(destination)) throw new InvalidParameterError(`Duplicate mount point: ${destination}`);
    destinations.add(destination);
  }
  const anonymous = Object.keys(volumes ?? {})
    .map(anonymousVolume)
    .filter(({ destination }) => !destinations.has(destination));
  return [...specs, ...anonymous];
}

/** `/data/` and `/data/./x/..` are `/data`, as Go's filepath.Clean has them. */
function normalised(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}
