/**
 * The body of POST /containers/create turned into the model's options: the fields the model keeps,
 * type-checked (a wrong type is a 400, as dockerd's JSON decoder gives); unknown properties ignored.
 */
import { atLeast } from '../../../harness/versions.ts';
import type { ContainerSpec } from '../model/container-config.ts';
import { InvalidParameterError } from '../model/errors.ts';

export interface CreateRequest {
  config: ContainerSpec;
  hostConfig?: Record<string, unknown>;
}

/** RFC 1123, at most 63 characters: dockerd's check from 1.24. */
const HOSTNAME = /^(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])\.)*([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])$/;

export function parseCreateBody(body: unknown, version: string): CreateRequest {
  if (body === undefined || body === null) throw new InvalidParameterError('Config cannot be empty in order to create a container');
  const fields = asObject(body, 'Config');
  const image = optional(fields.Image, 'Image', isString);
  if (!image) throw new InvalidParameterError('Config.Image is required: the reference creates containers from an image');
  const hostname = optional(fields.Hostname, 'Hostname', isString);
  if (hostname && atLeast(version, '1.24') && (hostname.length > 63 || !HOSTNAME.test(hostname))) {
    throw new InvalidParameterError(`invalid hostname format: ${hostname}`);
  }
  const hostConfig = fields.HostConfig === undefined || fields.HostConfig === null ? undefined : asObject(fields.HostConfig, 'HostConfig');
  if (hostConfig?.NetworkMode !== undefined) optional(hostConfig.NetworkMode, 'HostConfig.NetworkMode', isString);
  return {
    config: {
      Image: image,
      Cmd: commandField(fields.Cmd, 'Cmd'),
      Entrypoint: commandField(fields.Entrypoint, 'Entrypoint'),
      Env: optional(fields.Env, 'Env', isStringList),
      Labels: optional(fields.Labels, 'Labels', isStringMap),
      Hostname: hostname ?? undefined,
    },
    hostConfig,
  };
}

/** A command is a list of words, or one string standing for a one-word list. */
function commandField(value: unknown, field: string): string[] | null | undefined {
  if (typeof value === 'string') return [value];
  return optional(value, field, isStringList);
}

function optional<T>(value: unknown, field: string, is: (value: unknown) => value is T): T | null | undefined {
  if (value === undefined || value === null) return value;
  if (!is(value)) throw new InvalidParameterError(`json: cannot unmarshal ${jsonKind(value)} into the ${field} field`);
  return value;
}

function asObject(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidParameterError(`json: cannot unmarshal ${jsonKind(value)} into the ${field} object`);
  }
  return value as Record<string, unknown>;
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every(isString);
}

function isStringMap(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every(isString);
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'object' : typeof value;
}
