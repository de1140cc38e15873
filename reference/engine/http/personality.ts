/**
 * The choice points of the HTTP layer: wherever the spec allows more than one answer, the `dockerd`
 * personality answers as dockerd does and `strict` the other way the spec allows. Handlers and views
 * ask the personality of their request at each such point and never test its name.
 */
import type { Dialect } from '../../../protocol/dialect.ts';
import { atLeast } from '../../../protocol/versions.ts';
import type { ContainerState } from '../model/containers/container-state.ts';
import { statusText } from '../model/containers/container-status-text.ts';
import type { PersonalityName } from '../../../protocol/personality-names.ts';
import { DEFAULT_DETACH_KEYS } from '../model/containers/detach-keys.ts';
import { BRIDGE_DRIVER_OPTIONS } from '../model/networks/network-store.ts';
import { parseBooleanQuery } from './boolean-query.ts';
import type { DecodeOptions, GoField } from './json-fields.ts';
import { specQueryParameters } from './spec-query-parameters.ts';

/** What a view shapes an answer by: the requested version, the vendor's names and the personality. */
export interface AnswerShape {
  version: string;
  dialect: Dialect;
  personality: Personality;
}

/** What request parsing goes by: the requested version and the personality. */
export type RequestShape = Pick<AnswerShape, 'version' | 'personality'>;

export interface Personality {
  readonly name: PersonalityName;
  /** A boolean query parameter; the spec's values are 1, True, true, 0, False, false (spec/1 §4, spec/2 §4). */
  booleanQuery(value: string | null | undefined, fallback: boolean): boolean;
  /** An "array or null" field (ExecIDs, spec/1 §2.2; history Tags, spec/2 §2.1) holding nothing. */
  arrayOrNull<T>(items: T[]): T[] | null;
  /** A map-valued field the spec types as an object (image Labels) holding nothing. */
  emptyObject(map: Record<string, string>): Record<string, string> | null;
  /** A list whose order the spec does not fix, given in the order dockerd has it. */
  unordered<T>(items: readonly T[]): T[];
  /**
   * A response field the spec marks as added at `since`: from then on, or at every version, as a
   * newer daemon may return new properties at older versions (spec/1 §1, §9.1).
   */
  shows(version: string, since: string): boolean;
  /**
   * How a request body decodes: the fields it has at a version (a spec field from the version the spec
   * gives it; dockerd's own fields, or none of them), and whether a key matches a field's name in any
   * case, as Go's decoder does (the spec names fields, nothing more).
   */
  decoding(version: string): DecodeOptions;
  /** The query a handler reads: everything given, or only the parameters the spec's row of the route defines at the version. */
  query(route: string, version: string, given: URLSearchParams): URLSearchParams;
  /** The keys that detach an attached client when it names none (the spec names no default: spec/1 §4.1's detachKeys); empty: none do. */
  readonly defaultDetachKeys: Buffer;
  /** A network create's driver options (spec/2 §4.4: "Options (map)"): those kept, and a warning naming the others. */
  driverOptions(options: Record<string, string>): { kept: Record<string, string>; warning?: string };
  /** A ulimit's name as inspect shows it (spec/1 §2.3: "{Name, Soft, Hard}", no spelling given). */
  ulimitName(name: string): string;
  /** What a quiet build streams on success (spec/2 §4.1: "q (suppress verbose output)"). */
  quietBuildOutput(imageId: string): string;
  /** Whether a Binds entry's relative container path is read against the container's root (spec/1 §2.3 lists absolute forms only) rather than refused. */
  readonly relativeBindTargets: boolean;
  /** /dev/shm's size when a create gives none (spec/1 §2.3, §8: "default 64 MB"): 64 MiB, or 64 000 000 bytes. */
  readonly defaultShmSize: number | undefined;
  /** The status of an error, given the statuses the endpoint's row lists (undefined: none shown). */
  errorStatus(status: number, listed: readonly number[] | undefined): number;
  /** The words of an error message (the body format is the version's either way, spec/1 §7.1). */
  errorMessage(status: number, message: string): string;
  /** Whether the container list's `since` and `before` also list containers that are not running (spec/1 §4.1 says so of `limit` only). */
  readonly sinceBeforeListAll: boolean;
  /** Whether empty fields the spec lets go ("empty or driver-unsupported fields may be omitted", spec/2 §2.3) are left out. */
  readonly omitsEmpty: boolean;
  /** Whether an untagged image lists dockerd's `<none>:<none>` and `<none>@<none>` names. */
  readonly untaggedPlaceholders: boolean;
  /** Whether the image list's `filter` narrows each image's RepoTags to the matching names (spec/2 §4.1 only picks the images). */
  readonly narrowsFilteredNames: boolean;
  /** The human-readable Status of a container list item (spec/1 §2.1). */
  statusText(state: ContainerState, now: Date): string;
  /** An exec instance's ExitCode (an integer, spec/1 §2.5) while its command runs, from 1.22. */
  readonly runningExitCode: number | null;
  /** Whether a service update answers the spec's empty text/plain body (spec/2 §4.6) rather than dockerd's JSON. */
  readonly emptyServiceUpdate: boolean;
  /** How one piece of output is cut into multiplexed frames (spec/1 §4.4 fixes the frame, not how output is cut): one frame, or more. */
  framePayloads(chunk: Buffer): Buffer[];
  /** Whether attach/ws sends the stream in binary websocket messages rather than text ones. */
  readonly binaryWebsocket: boolean;
  /** Whether a login the registry gives no identity token for answers 204 with no body (spec/2 §4.2 lists 200 and 204) rather than 200 {Status}. */
  readonly loginWithoutContent: boolean;
  /**
   * Whether an image's inspect carries dockerd's `Config` (spec/2 §2.1 lists ContainerConfig only) for
   * the image's own configuration; without it, ContainerConfig holds that configuration.
   */
  readonly imageConfigField: boolean;
}

const DOCKERD: Personality = {
  name: 'dockerd',
  booleanQuery: parseBooleanQuery,
  arrayOrNull: (items) => (items.length > 0 ? items : null),
  emptyObject: (map) => (Object.keys(map).length > 0 ? map : null),
  unordered: (items) => [...items],
  shows: atLeast,
  decoding: (version) => ({ knows: (field) => field.since === undefined || atLeast(version, field.since) }),
  query: (_route, _version, given) => given,
  defaultDetachKeys: DEFAULT_DETACH_KEYS,
  driverOptions: (options) => ({ kept: options }),
  ulimitName: (name) => name,
  quietBuildOutput: (imageId) => `${imageId}\n`,
  relativeBindTargets: false,
  // the model's own default, dockerd's 64 MiB
  defaultShmSize: undefined,
  errorStatus: (status) => status,
  errorMessage: (_status, message) => message,
  sinceBeforeListAll: true,
  omitsEmpty: false,
  untaggedPlaceholders: true,
  narrowsFilteredNames: true,
  statusText,
  runningExitCode: null,
  emptyServiceUpdate: false,
  framePayloads: (chunk) => [chunk],
  binaryWebsocket: false,
  loginWithoutContent: false,
  imageConfigField: true,
};

/** The spec's boolean words; anything else is no value at all, so the parameter keeps its default. */
const SPEC_BOOLEANS: Record<string, boolean> = { 1: true, True: true, true: true, 0: false, False: false, false: false };

/** The meaning spec/1 §7.2 gives each status, as the strict personality words its errors. */
const STRICT_WORDS: Record<number, string> = {
  400: 'bad parameter',
  403: 'permission denied',
  404: 'no such object',
  406: 'impossible to attach: the container is not running',
  409: 'conflict with the current state',
  500: 'server error',
  501: 'not implemented',
  503: 'service unavailable',
};

const STRICT: Personality = {
  name: 'strict',
  booleanQuery: (value, fallback) => (value === null || value === undefined ? fallback : (SPEC_BOOLEANS[value] ?? fallback)),
  arrayOrNull: (items) => items,
  emptyObject: (map) => map,
  unordered: (items) => [...items].reverse(),
  shows: () => true,
  decoding: (version) => ({ knows: (field) => strictKnows(version, field), exactNames: true }),
  query: (route, version, given) => {
    const defined = specQueryParameters(route, version);
    return defined === undefined ? given : new URLSearchParams([...given].filter(([name]) => defined.includes(name)));
  },
  defaultDetachKeys: Buffer.alloc(0),
  driverOptions: (options) => {
    const unknown = Object.keys(options).filter((name) => !BRIDGE_DRIVER_OPTIONS.includes(name));
    if (unknown.length === 0) return { kept: options };
    const kept = Object.fromEntries(Object.entries(options).filter(([name]) => !unknown.includes(name)));
    return { kept, warning: `reference (strict): driver options not applied: ${unknown.join(', ')}` };
  },
  ulimitName: (name) => name.toUpperCase(),
  quietBuildOutput: (imageId) => `reference (strict): built image ${imageId}\n`,
  relativeBindTargets: true,
  defaultShmSize: 64_000_000,
  // a status the row lists for "it failed" in place of one it does not list
  errorStatus: (status, listed) => (listed === undefined || listed.includes(status) || !listed.includes(500) ? status : 500),
  errorMessage: (status) => `reference (strict): ${STRICT_WORDS[status] ?? `status ${status}`}`,
  sinceBeforeListAll: false,
  omitsEmpty: true,
  untaggedPlaceholders: false,
  narrowsFilteredNames: false,
  statusText: strictStatusText,
  runningExitCode: 0,
  emptyServiceUpdate: true,
  // two frames for anything longer than a byte: a reader must join frames, not take one for a line
  framePayloads: (chunk) => (chunk.length > 1 ? [chunk.subarray(0, chunk.length >> 1), chunk.subarray(chunk.length >> 1)] : [chunk]),
  binaryWebsocket: true,
  loginWithoutContent: true,
  imageConfigField: false,
};

export const PERSONALITIES: Record<PersonalityName, Personality> = { dockerd: DOCKERD, strict: STRICT };

/** A spec field from the version the spec gives it; none of dockerd's own. */
function strictKnows(version: string, field: GoField): boolean {
  return field.docker !== true && (field.since === undefined || atLeast(version, field.since));
}

/** Words of its own: the state and how long it has been in it, in seconds. */
function strictStatusText(state: ContainerState, now: Date): string {
  const seconds = (since: string) => Math.max(0, Math.round((now.getTime() - Date.parse(since)) / 1000));
  switch (state.Status) {
    case 'running':
      return `running for ${seconds(state.StartedAt)} s`;
    case 'paused':
      return `paused, running for ${seconds(state.StartedAt)} s`;
    case 'restarting':
      return `restarting after exit code ${state.ExitCode}`;
    case 'exited':
      return `exit code ${state.ExitCode}, ${seconds(state.FinishedAt)} s ago`;
    default:
      return state.Status;
  }
}
