/**
 * A plugin's config.json, as its author writes it and as a registry holds it (the config blob of a
 * plugin's manifest, media type `application/vnd.docker.plugin.v1+json`): dockerd's PluginConfig,
 * with the rootfs's diff ids when it comes from or goes to a registry. Reading is lenient where
 * dockerd's is (absent fields are empty); a config that is not a JSON object, or that names no
 * interface type, is refused, as dockerd refuses to create or pull such a plugin.
 */
import { InvalidParameterError } from './errors.ts';
import { goJson } from './image-document.ts';
import type { PluginArgs, PluginDevice, PluginEnv, PluginManifest, PluginMount } from './plugin-manifest.ts';

export interface PluginConfigFile {
  manifest: PluginManifest;
  /** the rootfs layers' diff ids (`sha256:…`); none in a build context's config.json */
  diffIds: string[];
}

type Json = Record<string, unknown>;

/** The manifest as dockerd's PluginConfig JSON spells it, without rootfs (what inspect shows as Config from 1.25). */
export function pluginConfigObject(manifest: PluginManifest): Json {
  return {
    Args: argsObject(manifest.args),
    Description: manifest.description,
    DockerVersion: manifest.dockerVersion,
    Documentation: manifest.documentation,
    Entrypoint: manifest.entrypoint,
    Env: manifest.env.map(envObject),
    Interface: { Socket: manifest.socket, Types: manifest.interfaceTypes },
    IpcHost: manifest.ipcHost,
    Linux: { AllowAllDevices: manifest.allowAllDevices, Capabilities: manifest.capabilities, Devices: manifest.devices.map(deviceObject) },
    Mounts: manifest.mounts.map(mountObject),
    Network: { Type: manifest.networkType },
    PidHost: manifest.pidHost,
    PropagatedMount: manifest.propagatedMount,
    User: {},
    WorkDir: manifest.workDir,
  };
}

/** The config blob a push uploads: the manifest and the rootfs it runs on. */
export function pluginConfigDocument(manifest: PluginManifest, diffIds: string[]): Buffer {
  return Buffer.from(goJson({ ...pluginConfigObject(manifest), rootfs: { diff_ids: diffIds, type: 'layers' } }));
}

export function readPluginConfig(bytes: Buffer): PluginConfigFile {
  let document: unknown;
  try {
    document = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new InvalidParameterError('plugin config is not JSON');
  }
  if (!isObject(document)) throw new InvalidParameterError('plugin config is not a JSON object');
  const iface = object(document.Interface);
  const linux = object(document.Linux);
  const interfaceTypes = strings(iface.Types);
  if (interfaceTypes.length === 0) throw new InvalidParameterError('plugin config names no interface type (Interface.Types)');
  const rootfs = object(document.rootfs);
  return {
    manifest: {
      description: text(document.Description),
      documentation: text(document.Documentation),
      interfaceTypes,
      socket: text(iface.Socket),
      entrypoint: strings(document.Entrypoint),
      workDir: text(document.WorkDir),
      networkType: text(object(document.Network).Type),
      capabilities: strings(linux.Capabilities),
      allowAllDevices: linux.AllowAllDevices === true,
      devices: objects(linux.Devices).map(readDevice),
      mounts: objects(document.Mounts).map(readMount),
      env: objects(document.Env).map(readEnv),
      args: readArgs(object(document.Args)),
      propagatedMount: text(document.PropagatedMount),
      ipcHost: document.IpcHost === true,
      pidHost: document.PidHost === true,
      dockerVersion: text(document.DockerVersion),
    },
    diffIds: strings(rootfs.diff_ids),
  };
}

/** The config.json's spelling of each part (dockerd's PluginMount, PluginDevice, PluginEnv, PluginArgs); the 1.24 manifest and the settings use it too. */
export function mountObject(mount: PluginMount): Json {
  return { Name: mount.name, Description: mount.description, Settable: mount.settable, Source: mount.source, Destination: mount.destination, Type: mount.type, Options: mount.options };
}

export function deviceObject(device: PluginDevice): Json {
  return { Name: device.name, Description: device.description, Settable: device.settable, Path: device.path };
}

export function envObject(env: PluginEnv): Json {
  return { Name: env.name, Description: env.description, Settable: env.settable, Value: env.value };
}

export function argsObject(args: PluginArgs): Json {
  return { Name: args.name, Description: args.description, Settable: args.settable, Value: args.value };
}

function readMount(mount: Json): PluginMount {
  return {
    name: text(mount.Name),
    description: text(mount.Description),
    settable: nullableStrings(mount.Settable),
    source: typeof mount.Source === 'string' ? mount.Source : null,
    destination: text(mount.Destination),
    type: text(mount.Type),
    options: strings(mount.Options),
  };
}

function readDevice(device: Json): PluginDevice {
  return { name: text(device.Name), description: text(device.Description), settable: nullableStrings(device.Settable), path: typeof device.Path === 'string' ? device.Path : null };
}

function readEnv(env: Json): PluginEnv {
  return { name: text(env.Name), description: text(env.Description), settable: nullableStrings(env.Settable), value: text(env.Value) };
}

function readArgs(args: Json): PluginArgs {
  return { name: text(args.Name), description: text(args.Description), settable: nullableStrings(args.Settable), value: nullableStrings(args.Value) };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function object(value: unknown): Json {
  return isObject(value) ? value : {};
}

function objects(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function nullableStrings(value: unknown): string[] | null {
  return Array.isArray(value) ? strings(value) : null;
}
