/**
 * Schemas of the image resources (spec/2 §2.1) per API version, and of the JSON streams the image
 * endpoints answer with (§4.1). Open, like every schema here: a newer daemon may add properties at any
 * version (spec/1 §1, §9.1), so a field of a later version is required from then on and merely
 * allowed before. Empty collections may come as null (Go's nil map or slice), as the container
 * schemas allow for Env and Cmd.
 */
import { atLeast } from '../../protocol/versions.ts';
import { INSPECT_CONFIG_SCHEMA } from './container-schemas.ts';
import { boolean, integer, nullableStringList, perVersion, string } from './schema-parts.ts';

const nullableStringMap = { type: ['object', 'null'], additionalProperties: string } as const;
const stringOrStringList = { type: ['string', 'array', 'null'], items: string } as const;

/** An item of GET /images/json: Labels from 1.20. RepoDigests (with digests=1) is a check of its own. */
export const imageSummarySchema = perVersion((version: string) => ({
  type: 'object',
  required: ['RepoTags', 'Id', 'Created', 'Size', 'VirtualSize', ...(atLeast(version, '1.20') ? ['Labels'] : [])],
  properties: {
    RepoTags: nullableStringList,
    Id: { type: 'string', minLength: 1 },
    ParentId: string,
    Created: integer,
    Size: integer,
    VirtualSize: integer,
    Labels: nullableStringMap,
    RepoDigests: nullableStringList,
  },
}));

/**
 * The ContainerConfig of image inspect (spec/2 §2.1), typed as a container's Config. Dns and
 * VolumesFrom are required by a check of their own ({@link CONTAINER_CONFIG_HOST_FIELDS}): a daemon
 * that moved them to the host config fails that check, not the whole shape.
 */
const CONTAINER_CONFIG_SCHEMA = {
  type: 'object',
  required: ['Hostname', 'User', 'AttachStdin', 'AttachStdout', 'AttachStderr', 'Tty', 'OpenStdin', 'StdinOnce', 'Env', 'Cmd', 'Image', 'Labels', 'Volumes', 'WorkingDir'],
  properties: {
    ...INSPECT_CONFIG_SCHEMA.properties,
    // The types of the container Config (spec/1 §2.3), which take a string too.
    Cmd: stringOrStringList,
    Entrypoint: stringOrStringList,
    StopSignal: { type: ['string', 'integer'] },
    Dns: nullableStringList,
    VolumesFrom: { type: ['string', 'array', 'null'] },
    // Untyped: spec/2 §2.1 does not list OnBuild in ContainerConfig, and spec/1 gives it no type.
    OnBuild: {},
  },
} as const;

export const CONTAINER_CONFIG_HOST_FIELDS = ['Dns', 'VolumesFrom'] as const;

/** GET /images/{name}/json: RepoTags and RepoDigests from 1.21. */
export const imageInspectSchema = perVersion((version: string) => ({
  type: 'object',
  required: ['Created', 'Container', 'ContainerConfig', 'Id', 'Parent', 'Size', ...(atLeast(version, '1.21') ? ['RepoTags', 'RepoDigests'] : [])],
  properties: {
    // "Created (timestamp)": unlike a container's Created (spec/1 §2.2, "RFC 3339 with nanoseconds") its form is not given.
    Created: { type: ['string', 'integer'] },
    Container: string,
    ContainerConfig: CONTAINER_CONFIG_SCHEMA,
    Id: { type: 'string', minLength: 1 },
    Parent: string,
    Size: integer,
    RepoTags: nullableStringList,
    RepoDigests: nullableStringList,
  },
}));

/** An item of GET /images/{name}/history: Tags, Size and Comment at 1.25. */
const historyItemSchema = perVersion((version: string) => ({
  type: 'object',
  required: ['Id', 'Created', 'CreatedBy', ...(atLeast(version, '1.25') ? ['Tags', 'Size', 'Comment'] : [])],
  properties: {
    Id: string,
    Created: integer,
    CreatedBy: string,
    Tags: nullableStringList,
    Size: integer,
    Comment: string,
  },
}));

export const historySchema = perVersion((version: string) => ({ type: 'array', minItems: 1, items: historyItemSchema(version) }));

/** An item of GET /images/search. */
export const SEARCH_ITEM_SCHEMA = {
  type: 'object',
  required: ['description', 'is_official', 'is_automated', 'name', 'star_count'],
  properties: { description: string, is_official: boolean, is_automated: boolean, name: string, star_count: integer },
} as const;

/** The answer of DELETE /images/{name}: objects with either Untagged or Deleted, never both. */
export const DELETE_RESPONSE_SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    properties: { Untagged: string, Deleted: string },
    oneOf: [{ required: ['Untagged'] }, { required: ['Deleted'] }],
  },
} as const;

/** 201 {Id} of POST /commit. */
export const COMMIT_RESPONSE_SCHEMA = {
  type: 'object',
  required: ['Id'],
  properties: { Id: { type: 'string', minLength: 1 } },
} as const;

/** A failure inside a JSON stream: {error, errorDetail {code, message}} (build), {error} (import). */
const ERROR_MESSAGE_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: {
    error: string,
    errorDetail: { type: 'object', required: ['message'], properties: { code: integer, message: string } },
  },
} as const;

/** An object of the POST /build stream: {stream} or the failure with its errorDetail {code, message}. */
export const BUILD_MESSAGE_SCHEMA = {
  oneOf: [
    { type: 'object', required: ['stream'], properties: { stream: string }, not: { required: ['error'] } },
    { ...ERROR_MESSAGE_SCHEMA, required: ['error', 'errorDetail'], properties: { ...ERROR_MESSAGE_SCHEMA.properties, errorDetail: { ...ERROR_MESSAGE_SCHEMA.properties.errorDetail, required: ['code', 'message'] } } },
  ],
} as const;

/**
 * An object of the import (POST /images/create) and load streams: {status} with optional progress
 * {progress, progressDetail {current, total}, id}, a {stream} line (load's confirmation), or {error}.
 * Spec/2 §4.1 names these fields without their types, so only their presence is judged (progressDetail
 * is an object).
 */
export const PROGRESS_MESSAGE_SCHEMA = {
  oneOf: [
    { type: 'object', required: ['status'], properties: { progressDetail: { type: 'object' } }, not: { required: ['error'] } },
    { type: 'object', required: ['stream'], not: { anyOf: [{ required: ['error'] }, { required: ['status'] }] } },
    { type: 'object', required: ['error'] },
  ],
} as const;
