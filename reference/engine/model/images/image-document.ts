/**
 * Docker's image config document, written the way dockerd writes it so that an image's id (the
 * document's sha256) is computed the same way: top-level keys sorted (dockerd re-marshals the image
 * through a map), the config's fields in the order of Go's container.Config, empty optional fields
 * left out, and `<`, `>`, `&` escaped as Go's encoding/json escapes them.
 */
import { createHash } from 'node:crypto';
import type { HealthConfig, HistoryEntry, Image, ImageConfig } from './image.ts';
import { formatTimestamp } from '../common/timestamps.ts';

/** What the document records about an image (names, parent and layers themselves live beside it). */
export type ImageDocumentFields = Pick<
  Image,
  'architecture' | 'os' | 'created' | 'config' | 'containerConfig' | 'container' | 'comment' | 'author' | 'dockerVersion' | 'history' | 'diffIds'
>;

export function writeImageDocument(fields: ImageDocumentFields): Buffer {
  const document: Record<string, unknown> = {
    architecture: fields.architecture,
    ...(fields.author !== '' && { author: fields.author }),
    ...(fields.comment !== '' && { comment: fields.comment }),
    config: goConfig(fields.config),
    ...(fields.container !== '' && { container: fields.container }),
    container_config: goConfig(fields.containerConfig),
    created: formatTimestamp(fields.created),
    ...(fields.dockerVersion !== '' && { docker_version: fields.dockerVersion }),
    history: fields.history.map(goHistory),
    os: fields.os,
    rootfs: { type: 'layers', diff_ids: fields.diffIds },
  };
  return Buffer.from(goJson(document));
}

/** The id of the image a document describes. */
export function imageIdOf(document: Buffer): string {
  return `sha256:${createHash('sha256').update(document).digest('hex')}`;
}

/** Reads a document written by dockerd or by writeImageDocument; throws on one that is not an image config. */
export function readImageDocument(document: Buffer): ImageDocumentFields {
  const parsed = JSON.parse(document.toString('utf8')) as Record<string, unknown>;
  const rootfs = parsed.rootfs as { diff_ids?: unknown } | undefined;
  if (typeof parsed !== 'object' || parsed === null || !Array.isArray(rootfs?.diff_ids)) throw new Error('invalid image config: no rootfs diff_ids');
  const config = modelConfig(parsed.config);
  return {
    architecture: stringField(parsed.architecture),
    os: stringField(parsed.os),
    created: new Date(stringField(parsed.created)),
    config,
    containerConfig: parsed.container_config === undefined ? config : modelConfig(parsed.container_config),
    container: stringField(parsed.container),
    comment: stringField(parsed.comment),
    author: stringField(parsed.author),
    dockerVersion: stringField(parsed.docker_version),
    history: Array.isArray(parsed.history) ? parsed.history.map(modelHistory) : [],
    diffIds: rootfs.diff_ids.map(stringField),
  };
}

/**
 * A config as dockerd shows it, in the document and in inspect: Go's container.Config field order,
 * ExposedPorts, NetworkDisabled, StopSignal and Shell only when set, and an empty Env or Labels as `null` — what an image
 * that never set them (an import, `FROM scratch`) carries.
 */
export function goConfig(config: ImageConfig): Record<string, unknown> {
  return {
    Hostname: config.Hostname,
    Domainname: config.Domainname,
    User: config.User,
    AttachStdin: config.AttachStdin,
    AttachStdout: config.AttachStdout,
    AttachStderr: config.AttachStderr,
    ...(config.ExposedPorts !== null && { ExposedPorts: config.ExposedPorts }),
    Tty: config.Tty,
    OpenStdin: config.OpenStdin,
    StdinOnce: config.StdinOnce,
    Env: config.Env.length > 0 ? config.Env : null,
    Cmd: config.Cmd,
    ...(config.Healthcheck !== undefined && { Healthcheck: config.Healthcheck }),
    Image: config.Image,
    Volumes: config.Volumes,
    WorkingDir: config.WorkingDir,
    Entrypoint: config.Entrypoint,
    ...(config.NetworkDisabled === true && { NetworkDisabled: true }),
    OnBuild: config.OnBuild,
    Labels: Object.keys(config.Labels).length > 0 ? config.Labels : null,
    ...(config.StopSignal !== undefined && config.StopSignal !== '' && { StopSignal: config.StopSignal }),
    ...(config.Shell !== undefined && config.Shell.length > 0 && { Shell: config.Shell }),
  };
}

function goHistory(entry: HistoryEntry): Record<string, unknown> {
  return {
    created: formatTimestamp(entry.created),
    ...(entry.author !== undefined && entry.author !== '' && { author: entry.author }),
    ...(entry.createdBy !== '' && { created_by: entry.createdBy }),
    ...(entry.comment !== '' && { comment: entry.comment }),
    ...(entry.emptyLayer && { empty_layer: true }),
  };
}

function modelConfig(value: unknown): ImageConfig {
  const given = (typeof value === 'object' && value !== null ? value : {}) as Partial<Record<keyof ImageConfig, unknown>>;
  const stringList = (field: unknown): string[] | null => (Array.isArray(field) ? field.map(String) : null);
  const objectOrNull = <T>(field: unknown): T | null => (typeof field === 'object' && field !== null && !Array.isArray(field) ? (field as T) : null);
  return {
    Hostname: stringField(given.Hostname),
    Domainname: stringField(given.Domainname),
    User: stringField(given.User),
    AttachStdin: given.AttachStdin === true,
    AttachStdout: given.AttachStdout === true,
    AttachStderr: given.AttachStderr === true,
    ExposedPorts: objectOrNull(given.ExposedPorts),
    Tty: given.Tty === true,
    OpenStdin: given.OpenStdin === true,
    StdinOnce: given.StdinOnce === true,
    Env: stringList(given.Env) ?? [],
    Cmd: stringList(given.Cmd),
    ...(objectOrNull<HealthConfig>(given.Healthcheck) !== null && { Healthcheck: given.Healthcheck as HealthConfig }),
    Image: stringField(given.Image),
    Volumes: objectOrNull(given.Volumes),
    WorkingDir: stringField(given.WorkingDir),
    Entrypoint: stringList(given.Entrypoint),
    ...(given.NetworkDisabled === true && { NetworkDisabled: true }),
    OnBuild: stringList(given.OnBuild),
    Labels: objectOrNull<Record<string, string>>(given.Labels) ?? {},
    ...(typeof given.StopSignal === 'string' && given.StopSignal !== '' && { StopSignal: given.StopSignal }),
    ...(Array.isArray(given.Shell) && given.Shell.length > 0 && { Shell: given.Shell.map(String) }),
  };
}

function modelHistory(value: unknown): HistoryEntry {
  const given = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return {
    created: new Date(stringField(given.created)),
    createdBy: stringField(given.created_by),
    comment: stringField(given.comment),
    ...(typeof given.author === 'string' && given.author !== '' && { author: given.author }),
    emptyLayer: given.empty_layer === true,
  };
}

function stringField(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** JSON as Go's encoding/json writes it: compact, with HTML-significant characters and line separators escaped. */
export function goJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
