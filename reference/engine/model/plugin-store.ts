/**
 * The plugins the engine has installed (spec/2 §2.6, §4.5), with dockerd's rules: a pull installs
 * the catalogue's plugin disabled, under the name it was pulled as or a local name of its own; a
 * plugin is found by name (`latest` when no tag is given) or by id prefix; enabling an enabled one or
 * disabling a disabled one is a conflict, and so is removing an enabled one unless forced.
 */
import { ConflictError, InvalidParameterError, NotFoundError } from './errors.ts';
import { findByIdPrefix } from './id-prefix.ts';
import { checkedImageReference, parseImageReference } from './image-reference.ts';
import { catalogueEntry } from './plugin-catalogue.ts';
import type { PluginEvents } from './plugin-events.ts';
import { pluginPrivileges, type PluginPrivilege } from './plugin-privileges.ts';
import { Plugin } from './plugin.ts';

export interface PluginStoreOptions {
  /** a new 64-hex-digit id on each call */
  ids: () => string;
  events: PluginEvents;
}

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
    const local = checkedImageReference(localName || entry.reference);
    if (local.digest !== undefined) throw new InvalidParameterError('cannot use digest in plugin tag');
    const tag = local.tag ?? 'latest';
    const name = `${local.repository}:${tag}`;
    if (this.byName(name) !== undefined) throw new ConflictError(`plugin ${JSON.stringify(name)} already exists`);
    const plugin = new Plugin(this.options.ids(), local.repository, tag, entry.reference, entry.manifest);
    this.byId.set(plugin.id, plugin);
    this.options.events.publish(plugin, 'pull');
    return { plugin, privileges: pluginPrivileges(entry.manifest) };
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

  private byName(name: string): Plugin | undefined {
    return this.list().find((plugin) => plugin.name === name);
  }
}
