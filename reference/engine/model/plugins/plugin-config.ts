/**
 * A plugin's config.json, as its author writes it and as a registry holds it (the config blob of a
 * plugin's manifest, media type `application/vnd.docker.plugin.v1+json`): dockerd's PluginConfig,
 * with the rootfs's diff ids when it comes from or goes to a registry. Reading is lenient where
 * dockerd's is (absent fields are empty, names match in any case); a config that is not a JSON
 * object, or that names no interface type, is refused, as dockerd refuses to create or pull such a plugin.
 */
import { InvalidParameterError } from '../common/errors.ts';
import { goJson } from '../images/image-document.ts';
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
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new InvalidParameterError('plugin config is not JSON');
  }
  if (!isObject(parsed)) throw new InvalidParameterError('plugin config is not a JSON object');
  const document = object(foldedKeys(parsed));
  const iface = object(document.interface);
  const linux = object(document.linux);
  const interfaceTypes = strings(iface.types);
  if (interfaceTypes.length === 0) throw new InvalidParameterError('plugin config names no interface type (Interface.Types)');
  const rootfs = object(document.rootfs);
  return {
    manifest: {
      description: text(document.description),
      documentation: text(document.documentation),
      interfaceTypes,
      socket: text(iface.socket),
      entrypoint: strings(document.entrypoint),
      workDir: text(document.workdir),
      networkType: text(object(document.network).type),
      capabilities: strings(linux.capabilities),
      allowAllDevices: linux.allowalldevices === true,
      devices: objects(linux.devices).map(readDevice),
      mounts: objects(document.mounts).map(readMount),
      env: objects(document.env).map(readEnv),
      args: readArgs(object(document.args)),
      propagatedMount: text(document.propagatedmount),
      ipcHost: document.ipchost === true,
      pidHost: document.pidhost === true,
      dockerVersion: text(document.dockerversion),
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
    name: text(mount.name),
    description: text(mount.description),
    settable: nullableStrings(mount.settable),
    source: typeof mount.source === 'string' ? mount.source : null,
    destination: text(mount.destination),
    type: text(mount.type),
    options: strings(mount.options),
  };
}

function readDevice(device: Json): PluginDevice {
  return { name: text(device.name), description: text(device.description), settable: nullableStrings(device.settable), path: typeof device.path === 'string' ? device.path : null };
}

function readEnv(env: Json): PluginEnv {
  return { name: text(env.name), description: text(env.description), settable: nullableStrings(env.settable), value: text(env.value) };
}

function readArgs(args: Json): PluginArgs {
  return { name: text(args.name), description: text(args.description), settable: nullableStrings(args.settable), value: nullableStrings(args.value) };
}

/**
 * The object with every key in lower case, at every depth: Go's JSON decoding matches a field name
 * without regard to case (docker-py's test plugin writes `interface`/`types`), and no key of a plugin
 * config is the author's own. Of two keys that differ only in case the later wins (Go prefers the exact one).
 */
function foldedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(foldedKeys);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key.toLowerCase(), foldedKeys(item)]));
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
