/**
 * Schemas of the plugin resources (spec/2 §2.6, §4.5). The spec gives one shape for every version
 * (the 1.24 API's) and names the fields of Config without their types: its Env and Args are the
 * settings (`NAME=value` strings) on a 1.24 daemon and the manifest's entries on a 1.25 one, so
 * either is allowed. Open, like every schema here; empty lists may come as null (Go's nil slices).
 */
import { boolean, string } from './schema-parts.ts';

const nullableStrings = { type: ['array', 'null'], items: string } as const;

const MOUNT_ENTRY = {
  type: 'object',
  required: ['Name', 'Description', 'Settable', 'Source', 'Destination', 'Type', 'Options'],
  properties: {
    Name: string,
    Description: string,
    Settable: nullableStrings,
    Source: { type: ['string', 'null'] },
    Destination: string,
    Type: string,
    Options: nullableStrings,
  },
} as const;

const DEVICE_ENTRY = {
  type: 'object',
  required: ['Name', 'Description', 'Settable', 'Path'],
  properties: { Name: string, Description: string, Settable: nullableStrings, Path: { type: ['string', 'null'] } },
} as const;

const ENV_ENTRY = {
  type: 'object',
  required: ['Name', 'Description', 'Settable', 'Value'],
  properties: { Name: string, Description: string, Settable: nullableStrings, Value: string },
} as const;

/** The manifest's args: one entry whose Value is the list. */
const ARGS_ENTRY = {
  type: 'object',
  required: ['Name', 'Description', 'Settable', 'Value'],
  properties: { Name: string, Description: string, Settable: nullableStrings, Value: nullableStrings },
} as const;

const listOf = (entry: object) => ({ type: ['array', 'null'], items: entry });

export const pluginSchema = {
  type: 'object',
  required: ['Id', 'Name', 'Tag', 'Active', 'Config', 'Manifest'],
  properties: {
    Id: { type: 'string', minLength: 1 },
    Name: { type: 'string', minLength: 1 },
    Tag: string,
    Active: boolean,
    Config: {
      type: 'object',
      required: ['Mounts', 'Env', 'Args', 'Devices'],
      properties: {
        Mounts: listOf(MOUNT_ENTRY),
        Env: listOf({ oneOf: [string, ENV_ENTRY] }),
        Args: { oneOf: [nullableStrings, ARGS_ENTRY] },
        Devices: listOf(DEVICE_ENTRY),
      },
    },
    Manifest: {
      type: 'object',
      required: ['ManifestVersion', 'Description', 'Documentation', 'Interface', 'Entrypoint', 'Workdir', 'User', 'Network', 'Capabilities', 'Mounts', 'Devices', 'Env', 'Args'],
      properties: {
        ManifestVersion: string,
        Description: string,
        Documentation: string,
        Interface: { type: 'object', required: ['Types', 'Socket'], properties: { Types: { type: 'array', items: string }, Socket: string } },
        Entrypoint: nullableStrings,
        Workdir: string,
        User: { type: 'object' },
        Network: { type: 'object', required: ['Type'], properties: { Type: string } },
        Capabilities: nullableStrings,
        Mounts: listOf(MOUNT_ENTRY),
        Devices: listOf(DEVICE_ENTRY),
        Env: listOf(ENV_ENTRY),
        Args: ARGS_ENTRY,
      },
    },
  },
} as const;

export const pluginListSchema = { type: 'array', items: pluginSchema } as const;

/** One privilege a plugin asks for: what the pull answers a list of, and GET /plugins/privileges. */
export const privilegeListSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['Name', 'Description', 'Value'],
    properties: { Name: { type: 'string', minLength: 1 }, Description: string, Value: { type: 'array', items: string } },
  },
} as const;

/**
 * The list item as spec/2 §2.6 gives it, for the spec-level list check: every field named, but typed
 * only where the spec types it (Active boolean, Interface.Types an array) and where the name is a
 * string by the pull's own words (Name, Tag); the entries of the Mounts, Devices and Env lists have
 * the fields of their entry, untyped. Config's lists may hold settings strings (a 1.24 daemon's), and
 * Manifest.Args, User, Entrypoint and the rest are left to the daemon.
 */
const entryOf = (required: string[]) => ({ type: ['array', 'null'], items: { anyOf: [string, { type: 'object', required }] } });
const SPEC_MOUNT = ['Name', 'Description', 'Settable', 'Source', 'Destination', 'Type', 'Options'];
const SPEC_DEVICE = ['Name', 'Description', 'Settable', 'Path'];
const SPEC_ENV = ['Name', 'Description', 'Settable', 'Value'];
const strictEntries = (required: string[]) => ({ type: ['array', 'null'], items: { type: 'object', required } });

export const pluginSpecSchema = {
  type: 'object',
  required: ['Id', 'Name', 'Tag', 'Active', 'Config', 'Manifest'],
  properties: {
    Name: string,
    Tag: string,
    Active: boolean,
    Config: {
      type: 'object',
      required: ['Mounts', 'Env', 'Args', 'Devices'],
      properties: { Mounts: entryOf(SPEC_MOUNT), Env: entryOf(SPEC_ENV), Devices: entryOf(SPEC_DEVICE) },
    },
    Manifest: {
      type: 'object',
      required: ['ManifestVersion', 'Description', 'Documentation', 'Interface', 'Entrypoint', 'Workdir', 'User', 'Network', 'Capabilities', 'Mounts', 'Devices', 'Env', 'Args'],
      properties: {
        Interface: { type: 'object', required: ['Types', 'Socket'], properties: { Types: { type: 'array' } } },
        Network: { type: 'object', required: ['Type'] },
        Mounts: strictEntries(SPEC_MOUNT),
        Devices: strictEntries(SPEC_DEVICE),
        Env: strictEntries(SPEC_ENV),
      },
    },
  },
} as const;

export const pluginSpecListSchema = { type: 'array', items: pluginSpecSchema } as const;

/** The pull's answer (spec/2 §2.6): objects with Name, Description and Value, an array of strings. */
export const pullAnswerSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['Name', 'Description', 'Value'],
    properties: { Value: { type: 'array', items: string } },
  },
} as const;
