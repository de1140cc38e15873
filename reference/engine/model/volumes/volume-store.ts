/**
 * The volumes the engine holds (spec/2 §2.3, §4.3), all of the local driver: create (a generated
 * name when none is given; an existing name gives that volume back, as dockerd does), find, list,
 * remove, and which containers use each one — a volume in use cannot be removed (§3), whether its
 * containers run or not. Errors are dockerd's, worded with the operation and the name.
 */
import { LayerIndex } from '../../filesystem/layer-index.ts';
import { ConflictError, InvalidParameterError, NotFoundError } from '../common/errors.ts';
import type { VolumeEvents } from './volume-events.ts';
import { checkedDangling, matchesVolumeFilters, type VolumeListFilters } from './volume-list-filters.ts';
import { LOCAL_DRIVER, Volume } from './volume.ts';

export interface VolumeCreateOptions {
  /** generated (64 hex digits) when absent or empty */
  name?: string;
  /** '' or absent: the local driver */
  driver?: string;
  driverOpts?: Record<string, string>;
  labels?: Record<string, string>;
}

export interface VolumeStoreOptions {
  clock: () => Date;
  ids: () => string;
  events: VolumeEvents;
}

/** The local driver's names: a letter or digit, then at least one more of these or `_.-`. */
const LOCAL_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]+$/;
/** The options the local driver takes; with any, `device` and `type` are required (it mounts them). */
const LOCAL_OPTIONS = ['type', 'device', 'o'];

export class VolumeStore {
  private readonly byName = new Map<string, Volume>();
  /** host paths that binds gave, to their files: the simulated host's directories, which never touch the real ones */
  private readonly hostDirectories = new Map<string, LayerIndex>();
  /** volume name to the ids of the containers that use it */
  private readonly users = new Map<string, Set<string>>();

  constructor(private readonly options: VolumeStoreOptions) {}

  get count(): number {
    return this.byName.size;
  }

  /** A new volume, or the one of that name as it is (its driver options and labels unchanged); either way a create event. */
  create(options: VolumeCreateOptions = {}): Volume {
    const name = options.name || this.options.ids();
    const context = `create ${name}`;
    const driver = options.driver || LOCAL_DRIVER;
    if (driver !== LOCAL_DRIVER) throw new NotFoundError(`${context}: error looking up volume plugin ${driver}: plugin "${driver}" not found`);
    let volume = this.byName.get(name);
    if (volume === undefined) {
      checkName(name, context);
      const driverOpts = options.driverOpts ?? {};
      checkLocalOptions(driverOpts, context);
      volume = new Volume(name, this.options.clock(), { ...options.labels }, { ...driverOpts });
      this.byName.set(name, volume);
    }
    this.options.events.publish(volume, 'create');
    return volume;
  }

  find(name: string): Volume {
    const volume = this.byName.get(name);
    if (volume === undefined) throw new NotFoundError(`get ${name}: no such volume`);
    return volume;
  }

  /** By name; `filters` as {@link VolumeListFilters} says. */
  list(filters: VolumeListFilters = {}): Volume[] {
    const dangling = checkedDangling(filters.dangling);
    return [...this.byName.values()]
      .filter((volume) => matchesVolumeFilters(volume, filters, this.inUse(volume), dangling))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  /** Refused while any container uses the volume. `event` false: no destroy event (dockerd's prune removes so). */
  remove(name: string, { event = true }: { event?: boolean } = {}): void {
    const volume = this.find(name);
    const users = [...(this.users.get(name) ?? [])];
    if (users.length > 0) throw new ConflictError(`remove ${name}: volume is in use - [${users.join(' ')}]`);
    this.byName.delete(name);
    if (event) this.options.events.publish(volume, 'destroy');
  }

  /** The container `containerId` uses the volume from now on (from its create to its removal). */
  use(volume: Volume, containerId: string): void {
    let users = this.users.get(volume.name);
    if (users === undefined) this.users.set(volume.name, (users = new Set()));
    users.add(containerId);
  }

  release(volume: Volume, containerId: string): void {
    const users = this.users.get(volume.name);
    users?.delete(containerId);
    if (users?.size === 0) this.users.delete(volume.name);
  }

  /** How many containers use the volume (system df's RefCount). */
  userCount(volume: Volume): number {
    return this.users.get(volume.name)?.size ?? 0;
  }

  inUse(volume: Volume): boolean {
    return this.users.has(volume.name);
  }

  /**
   * The files under a host path a bind mounts: made empty on first use (dockerd creates a missing bind
   * source), then shared by every container that binds the same path, as a host directory would be.
   */
  hostDirectory(path: string): LayerIndex {
    const key = path.replace(/\/+$/, '') || '/';
    let files = this.hostDirectories.get(key);
    if (files === undefined) {
      files = new LayerIndex();
      files.set('/', { kind: 'directory', mode: 0o755, uid: 0, gid: 0, mtime: this.options.clock(), opaque: false });
      this.hostDirectories.set(key, files);
    }
    return files;
  }

  clear(): void {
    this.hostDirectories.clear();
    this.byName.clear();
    this.users.clear();
  }
}

function checkName(name: string, context: string): void {
  if (LOCAL_NAME.test(name)) return;
  if (name.length === 1 && /^[a-zA-Z0-9]$/.test(name)) {
    throw new InvalidParameterError(`${context}: volume name is too short, names should be at least two alphanumeric characters`);
  }
  throw new InvalidParameterError(
    `${context}: "${name}" includes invalid characters for a local volume name, only "[a-zA-Z0-9][a-zA-Z0-9_.-]" are allowed. If you intended to pass a host directory, use absolute path`,
  );
}

function checkLocalOptions(driverOpts: Record<string, string>, context: string): void {
  const keys = Object.keys(driverOpts);
  const unknown = keys.find((key) => !LOCAL_OPTIONS.includes(key));
  if (unknown !== undefined) throw new InvalidParameterError(`${context}: invalid option: "${unknown}"`);
  if (keys.length === 0) return;
  for (const required of ['device', 'type']) {
    if (!driverOpts[required]) throw new InvalidParameterError(`${context}: missing required option: "${required}"`);
  }
}
