/**
 * Plugins as each API version shows them. The spec's shape (spec/2 §2.6) is the one of the 1.24
 * API, where plugins were experimental: Name and Tag apart, Active, Config holding the settings
 * (`NAME=value` env, args, mounts, devices) and Manifest the author's config. dockerd 1.13 (API 1.25)
 * renamed them: Enabled, Settings for the settings and Config for the manifest, which the docker CLI
 * reads. From 1.25 the reference gives both, the spec's fields and dockerd's, with Config holding the
 * manifest's fields (its Mounts, Env, Args and Devices as entries, which satisfy the spec too).
 */
import { atLeast } from '../../../protocol/versions.ts';
import { qualifiedName } from '../model/images/image-reference.ts';
import { argsObject, deviceObject, envObject, mountObject, pluginConfigObject } from '../model/plugins/plugin-config.ts';
import type { PluginManifest, PluginSettings } from '../model/plugins/plugin-manifest.ts';
import type { PluginPrivilege } from '../model/plugins/plugin-privileges.ts';
import type { Plugin } from '../model/plugins/plugin.ts';

/** The settings as Config (1.24) and Settings (1.25) show them; empty lists are null, as dockerd's nil slices. */
function settingsView(settings: PluginSettings): Record<string, unknown> {
  const orNull = <T>(items: T[]) => (items.length > 0 ? items : null);
  return {
    Mounts: orNull(settings.mounts.map(mountObject)),
    Env: orNull(settings.env),
    Args: orNull(settings.args),
    Devices: orNull(settings.devices.map(deviceObject)),
  };
}

/** The manifest as 1.24 shows it (ManifestVersion v0). */
function manifestView(manifest: PluginManifest): Record<string, unknown> {
  return {
    ManifestVersion: 'v0',
    Description: manifest.description,
    Documentation: manifest.documentation,
    Interface: { Types: manifest.interfaceTypes, Socket: manifest.socket },
    Entrypoint: manifest.entrypoint,
    Workdir: manifest.workDir,
    User: {},
    Network: { Type: manifest.networkType },
    Capabilities: manifest.capabilities,
    Mounts: manifest.mounts.map(mountObject),
    Devices: manifest.devices.map(deviceObject),
    Env: manifest.env.map(envObject),
    Args: argsObject(manifest.args),
  };
}

/** The manifest as dockerd's Config shows it from 1.25 (its config.json), plus the spec's Devices (dockerd keeps them under Linux). */
function configView(manifest: PluginManifest): Record<string, unknown> {
  return { ...pluginConfigObject(manifest), Devices: manifest.devices.map(deviceObject) };
}

export function pluginView(plugin: Plugin, version: string): Record<string, unknown> {
  const common = { Id: plugin.id, Name: plugin.repository, Tag: plugin.tag, Active: plugin.enabled, Manifest: manifestView(plugin.manifest) };
  if (!atLeast(version, '1.25')) return { ...common, Config: settingsView(plugin.settings) };
  return {
    ...common,
    Config: configView(plugin.manifest),
    Enabled: plugin.enabled,
    Settings: settingsView(plugin.settings),
    PluginReference: qualifiedName(plugin.remote),
  };
}

/** The privileges a plugin asks for, as GET /plugins/privileges and the pull answer show them. */
export function privilegesView(privileges: PluginPrivilege[]): Record<string, unknown>[] {
  return privileges.map((privilege) => ({ Name: privilege.name, Description: privilege.description, Value: privilege.value }));
}
