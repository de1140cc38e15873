/**
 * The privileges a plugin asks for before it is installed (GET /plugins/privileges, and the pull
 * answer of spec/2 §4.5): what its manifest needs from the host, in dockerd's order and words
 * (its computePrivileges), so that `docker plugin install` prompts the same.
 */
import type { PluginManifest } from './plugin-manifest.ts';

export interface PluginPrivilege {
  name: string;
  description: string;
  value: string[];
}

export function pluginPrivileges(manifest: PluginManifest): PluginPrivilege[] {
  const privileges: PluginPrivilege[] = [];
  if (!['', 'null', 'bridge'].includes(manifest.networkType)) {
    privileges.push({ name: 'network', description: 'permissions to access a network', value: [manifest.networkType] });
  }
  if (manifest.ipcHost) privileges.push({ name: 'host ipc namespace', description: 'allow access to host ipc namespace', value: ['true'] });
  if (manifest.pidHost) privileges.push({ name: 'host pid namespace', description: 'allow access to host pid namespace', value: ['true'] });
  for (const mount of manifest.mounts) {
    if (mount.source !== null) privileges.push({ name: 'mount', description: 'host path to mount', value: [mount.source] });
  }
  for (const device of manifest.devices) {
    if (device.path !== null) privileges.push({ name: 'device', description: 'host device to access', value: [device.path] });
  }
  if (manifest.allowAllDevices) privileges.push({ name: 'allow-all-devices', description: "allow 'rwm' access to all devices", value: ['true'] });
  if (manifest.capabilities.length > 0) {
    privileges.push({ name: 'capabilities', description: 'list of additional capabilities required', value: [...manifest.capabilities] });
  }
  return privileges;
}
