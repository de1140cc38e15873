/**
 * Schemas of the exec instance (spec/1 §2.5) per API version. Open, like every schema here: a newer
 * daemon may add properties at any version (spec/1 §1, §9.1). The Container object that exec inspect
 * embeds up to 1.21 is the rule of a check of its own (exec.inspect.container), so it is only typed here.
 */
import { atLeast } from '../../protocol/versions.ts';
import { boolean, perVersion, string } from './schema-parts.ts';

/**
 * POST /containers/{id}/exec → 201 {Id, Warnings} (spec/1 §2.5; Warnings since 1.18, §9.4). Unlike the
 * container create answer (§2.3: "Warnings (array of string)"), §2.5 gives the exec's Warnings as
 * "(array)" alone, so its items are not typed.
 */
export const EXEC_CREATE_RESPONSE_SCHEMA = {
  type: 'object',
  required: ['Id', 'Warnings'],
  properties: {
    Id: { type: 'string', minLength: 1 },
    Warnings: { type: 'array' },
  },
} as const;

/** ProcessConfig of exec inspect: the command as the daemon runs it. entrypoint and user have no type in spec/1 §2.5. */
const PROCESS_CONFIG_SCHEMA = {
  type: 'object',
  required: ['arguments', 'entrypoint', 'privileged', 'tty', 'user'],
  properties: {
    arguments: { type: 'array', items: string },
    privileged: boolean,
    tty: boolean,
  },
} as const;

/** Fields the spec gives at 1.25 only: the 1.21 text embeds the Container instead of naming its id. */
const FROM_125 = ['CanRemove', 'ContainerID', 'DetachKeys'] as const;

/**
 * GET /exec/{id}/json of an exec that has run to its end (ExitCode is then an integer; before the
 * exec starts a daemon may show it as null, which the spec does not describe).
 */
export const execInspectSchema = perVersion((version: string) => ({
  type: 'object',
  required: ['ID', 'Running', 'ExitCode', 'OpenStdin', 'OpenStderr', 'OpenStdout', 'ProcessConfig', ...(atLeast(version, '1.25') ? FROM_125 : [])],
  properties: {
    ID: { type: 'string', minLength: 1 },
    Running: boolean,
    ExitCode: { type: 'integer' },
    OpenStdin: boolean,
    OpenStderr: boolean,
    OpenStdout: boolean,
    ProcessConfig: PROCESS_CONFIG_SCHEMA,
    CanRemove: boolean,
    ContainerID: { type: 'string', minLength: 1 },
    DetachKeys: string,
    Container: { type: 'object' },
  },
}));

/**
 * The container object exec inspect embeds up to 1.21 (spec/1 §2.5: "State, Config, NetworkSettings and
 * the other container fields"). Its id field is not required: the spec does not spell its name there.
 */
export const EMBEDDED_CONTAINER_SCHEMA = {
  type: 'object',
  required: ['State', 'Config', 'NetworkSettings'],
  properties: {
    State: { type: 'object', required: ['Running'], properties: { Running: boolean } },
    Config: { type: 'object' },
    NetworkSettings: { type: 'object' },
  },
} as const;
