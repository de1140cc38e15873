/**
 * What a plugin is made of, as its author's config.json (the manifest) says and as dockerd keeps it:
 * its interface, what it needs from the host (network, mounts, devices, capabilities), and the
 * settings a user may change (env, args, mount sources, device paths). Field names are the model's;
 * how each API version spells them is the HTTP layer's.
 */

/** A mount the plugin needs; a null source is one the user must give. */
export interface PluginMount {
  name: string;
  description: string;
  settable: string[] | null;
  source: string | null;
  destination: string;
  type: string;
  options: string[];
}

export interface PluginDevice {
  name: string;
  description: string;
  settable: string[] | null;
  path: string | null;
}

export interface PluginEnv {
  name: string;
  description: string;
  settable: string[] | null;
  value: string;
}

export interface PluginArgs {
  name: string;
  description: string;
  settable: string[] | null;
  value: string[] | null;
}

export interface PluginManifest {
  description: string;
  documentation: string;
  /** e.g. `docker.volumedriver/1.0` */
  interfaceTypes: string[];
  /** the socket, under the plugin's run directory, that the engine talks to */
  socket: string;
  entrypoint: string[];
  workDir: string;
  /** `host`, `bridge`, `none` or empty */
  networkType: string;
  capabilities: string[];
  allowAllDevices: boolean;
  devices: PluginDevice[];
  mounts: PluginMount[];
  env: PluginEnv[];
  args: PluginArgs;
  propagatedMount: string;
  ipcHost: boolean;
  pidHost: boolean;
  /** the engine version the plugin was built with */
  dockerVersion: string;
}

/** What the user asked for or accepted, shown as the plugin's settings: `NAME=value` env, args, mounts and devices. */
export interface PluginSettings {
  env: string[];
  args: string[];
  mounts: PluginMount[];
  devices: PluginDevice[];
}

/** The settings a plugin starts with: the manifest's defaults. */
export function defaultSettings(manifest: PluginManifest): PluginSettings {
  return {
    env: manifest.env.map((entry) => `${entry.name}=${entry.value}`),
    args: [...(manifest.args.value ?? [])],
    mounts: manifest.mounts.map((mount) => ({ ...mount })),
    devices: manifest.devices.map((device) => ({ ...device })),
  };
}
