/**
 * The plugins the engine has installed (spec/2 §2.6, §4.5), with dockerd's rules: a pull installs
 * the catalogue's plugin (or one a registry gave, plugin-distribution.ts) disabled, under the name it
 * was pulled as or a local name of its own; a create installs one from a build context; a plugin is
 * found by name (`latest` when no tag is given) or by id prefix; enabling an enabled one or
 * disabling a disabled one is a conflict, and so is removing an enabled one unless forced.
 */
import { ConflictError, InvalidParameterError, NotFoundError } from '../common/errors.ts';
import { findByIdPrefix } from '../common/id-prefix.ts';
import { checkedImageReference, familiarString, parseImageReference } from '../images/image-reference.ts';
import { catalogueEntry } from './plugin-catalogue.ts';
import type { PluginEvents } from './plugin-events.ts';
import type { PluginManifest } from './plugin-manifest.ts';
import { pluginPrivileges, type PluginPrivilege } from './plugin-privileges.ts';
import { Plugin } from './plugin.ts';

export interface PluginStoreOptions {
  /** a new 64-hex-digit id on each call */
  ids: () => string;
  events: PluginEvents;
}

/** What a plugin is installed from: where it came from (familiar `repository:tag`), its manifest and its rootfs as a tar. */
export interface PluginSource {
  remote: string;
  manifest: PluginManifest;
  rootfs: Buffer;
}

/** A tar with no members: the rootfs of a catalogue plugin, whose files the reference never runs. */
const EMPTY_TAR = Buffer.alloc(1024);

export interface PulledPlugin {
  plugin: Plugin;
  /** what the plugin was granted: the privileges its manifest asks for */
  privileges: PluginPrivilege[];
}

export class PluginStore {
  /** by id, in the order of their pull */
  private readonly byId = new Map<string, Plugin>();

  constructor(private readonly options: PluginStoreOptions) {}

  /** What pulling `remote` from the catalogue would ask the user to grant. */
  privileges(remote: string): PluginPrivilege[] {
    return pluginPrivileges(catalogueEntry(remote).manifest);
  }

  /** Installs `remote` from the catalogue, disabled, as `localName` (the remote's name when absent; `latest` when it has no tag). */
  pull(remote: string, localName?: string): PulledPlugin {
    const entry = catalogueEntry(remote);
    return this.installPulled({ remote: entry.reference, manifest: entry.manifest, rootfs: EMPTY_TAR }, localName);
  }

  /** Installs what a pull fetched, as `pull` installs a catalogue plugin. */
  installPulled(source: PluginSource, localName?: string): PulledPlugin {
    const plugin = this.install(source, localName || source.remote);
    this.options.events.publish(plugin, 'pull');
    return { plugin, privileges: pluginPrivileges(source.manifest) };
  }

  /** POST /plugins/create: a plugin from a build context, disabled, named `name` (and pulled as that). */
  create(name: string, manifest: PluginManifest, rootfs: Buffer): Plugin {
    const plugin = this.install({ remote: name, manifest, rootfs }, name);
    this.options.events.publish(plugin, 'create');
    return plugin;
  }

  /** Records that a plugin went to its registry. */
  pushed(plugin: Plugin): void {
    this.options.events.publish(plugin, 'push');
  }

  list(): Plugin[] {
    return [...this.byId.values()];
  }

  /** By name (`latest` when no tag is given) first, then by id or id prefix. */
  find(nameOrId: string): Plugin {
    const reference = parseImageReference(nameOrId);
    const named = reference !== undefined && reference.digest === undefined ? this.byName(`${reference.repository}:${reference.tag ?? 'latest'}`) : undefined;
    const plugin = named ?? findByIdPrefix(this.byId.values(), (item) => item.id, nameOrId);
    if (plugin === undefined) throw new NotFoundError(`plugin ${JSON.stringify(nameOrId)} not found`);
    return plugin;
  }

  enable(nameOrId: string): Plugin {
    const plugin = this.find(nameOrId);
    if (plugin.enabled) throw new ConflictError(`plugin already enabled: plugin ${plugin.name} is enabled`);
    plugin.enabled = true;
    this.options.events.publish(plugin, 'enable');
    return plugin;
  }

  disable(nameOrId: string): Plugin {
    const plugin = this.find(nameOrId);
    if (!plugin.enabled) throw new ConflictError(`plugin is already disabled: plugin ${plugin.name} is disabled`);
    plugin.enabled = false;
    this.options.events.publish(plugin, 'disable');
    return plugin;
  }

  /** Refused while the plugin is enabled, unless `force`: then it is disabled on the way out (no disable event, as dockerd). */
  remove(nameOrId: string, force = false): void {
    const plugin = this.find(nameOrId);
    if (plugin.enabled && !force) throw new ConflictError(`plugin ${plugin.name} is enabled`);
    plugin.enabled = false;
    this.byId.delete(plugin.id);
    this.options.events.publish(plugin, 'remove');
  }

  clear(): void {
    this.byId.clear();
  }

  private install(source: PluginSource, localName: string): Plugin {
    const local = checkedImageReference(localName);
    if (local.digest !== undefined) throw new InvalidParameterError('cannot use digest in plugin tag');
    const tag = local.tag ?? 'latest';
    const name = `${local.repository}:${tag}`;
    if (this.byName(name) !== undefined) throw new ConflictError(`plugin ${JSON.stringify(name)} already exists`);
    const remote = checkedImageReference(source.remote);
    const plugin = new Plugin(this.options.ids(), local.repository, tag, familiarString(remote), source.manifest, source.rootfs);
    this.byId.set(plugin.id, plugin);
    return plugin;
  }

  private byName(name: string): Plugin | undefined {
    return this.list().find((plugin) => plugin.name === name);
  }
}
