/**
 * Exec instances (spec/1 §2.5, §4.2): create, start — detached, or attached as a raw stream like
 * attach (hijacked with Upgrade, a 200 body without), multiplexed unless the start asks for a Tty —
 * resize and inspect. Version rules: a stopped container is a conflict (409) from 1.21 and a plain
 * error before; inspect embeds the container up to 1.21 and names it by ContainerID after. DetachKeys
 * (spec/1 §2.5, [1.25]), Env, User and Privileged are read at every version, as dockerd 20.10 reads
 * them whatever the version in the path.
 */
import { atLeast, before } from '../../../protocol/versions.ts';
import { parseDetachKeys } from '../model/containers/detach-keys.ts';
import { InvalidParameterError, NotRunningError } from '../model/common/errors.ts';
import type { ExecInstance, ExecSpec } from '../model/containers/exec-instance.ts';
import { containerInspect } from './container-views.ts';
import { EXEC_CONFIG, EXEC_START_CHECK } from './body-structs.ts';
import { HttpError } from '../../http-error.ts';
import { atoi } from './integer-query.ts';
import { readJsonBody } from './json-body.ts';
import { decodeGo, type GoType } from './json-fields.ts';
import { openRawStream } from './raw-stream.ts';
import { sendEmpty, sendJson, sendText } from './replies.ts';
import type { AnswerShape } from './personality.ts';
import { containerOf } from './route-helpers.ts';
import type { Route, RouteContext } from './route-table.ts';

/** The body decoded into `type`; dockerd's decoder refuses an empty one, worded `ifEmpty`. */
async function bodyFields<T>({ request, personality, version }: RouteContext, type: GoType, ifEmpty: string): Promise<T> {
  const body = await readJsonBody(request);
  if (body === undefined) throw new InvalidParameterError(ifEmpty);
  return decodeGo<T>(body, type, personality.decoding(version));
}

interface ExecConfig {
  Cmd?: string[];
  AttachStdin?: boolean;
  AttachStdout?: boolean;
  AttachStderr?: boolean;
  Tty?: boolean;
  Privileged?: boolean;
  DetachKeys?: string;
  Env?: string[];
  User?: string;
}

function parseExecSpec(fields: ExecConfig): ExecSpec {
  const cmd = fields.Cmd ?? [];
  if (cmd.length === 0) throw new InvalidParameterError('No exec command specified');
  const keysText = fields.DetachKeys || undefined;
  const detachKeys = keysText === undefined ? undefined : parseDetachKeys(keysText);
  // the client's mistake: 400 in dockerd's words (dockerd 20.10 refuses them with a plain error, 500, at every version)
  if (keysText !== undefined && !detachKeys) throw new InvalidParameterError(`Invalid escape keys (${keysText}) provided`);
  return {
    cmd,
    attachStdin: fields.AttachStdin ?? false,
    attachStdout: fields.AttachStdout ?? false,
    attachStderr: fields.AttachStderr ?? false,
    tty: fields.Tty ?? false,
    detachKeys,
    env: fields.Env ?? [],
    user: fields.User || undefined,
    privileged: fields.Privileged ?? false,
  };
}

/** Before 1.21 a container that is not running was a plain error (500), not a conflict. */
async function withNotRunningOf<T>(version: string, action: () => T | Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof NotRunningError && before(version, '1.21')) throw new HttpError(500, error.message);
    throw error;
  }
}

function execOf({ model, params }: RouteContext): ExecInstance {
  return model.execs.find(params.id ?? '');
}

async function createExec(context: RouteContext): Promise<void> {
  const { model, version, response } = context;
  const spec = parseExecSpec(await bodyFields<ExecConfig>(context, EXEC_CONFIG, 'got EOF while reading request body'));
  const container = containerOf(context);
  const instance = await withNotRunningOf(version, () => model.execs.create(container, spec));
  sendJson(response, 201, { Id: instance.id, Warnings: [] });
}

async function startExec(context: RouteContext): Promise<void> {
  const { model, version, response } = context;
  const fields = await bodyFields<{ Detach?: boolean; Tty?: boolean }>(context, EXEC_START_CHECK, 'EOF');
  const detach = fields.Detach ?? false;
  const multiplexed = !fields.Tty;
  const instance = execOf(context);
  if (detach) {
    await withNotRunningOf(version, () => model.execs.start(instance));
    return sendEmpty(response, 200);
  }
  await withNotRunningOf(version, () => model.execs.checkStart(instance));
  const client = openRawStream(context, { multiplexed });
  try {
    client.bind(model.execs.startAttached(instance, { stdin: client.hasInput, output: client.send.bind(client), defaultDetachKeys: context.personality.defaultDetachKeys }));
  } catch (error) {
    // The answer has begun: as dockerd, a command that cannot start says so in the stream.
    client.send('stdout', Buffer.from(`${(error as Error).message}\r\n`));
    client.end();
  }
}

async function resizeExec(context: RouteContext): Promise<void> {
  // Checked as dockerd checks them, though the simulated terminal has no size to change.
  atoi(context.query.get('h') ?? '');
  atoi(context.query.get('w') ?? '');
  const instance = execOf(context);
  await withNotRunningOf(context.version, () => context.model.execs.resize(instance));
  sendText(context.response, 201, '');
}

/**
 * dockerd's exec inspect: up to 1.21 the whole container is embedded and ExitCode is 0 until the
 * command ends; from 1.22 the container is named by ContainerID, ExitCode is null until then, and the
 * DetachKeys bytes show base64-encoded (a Go []byte); Pid from 1.25.
 */
function execView(instance: ExecInstance, shape: AnswerShape, containerExecIds: string[]): Record<string, unknown> {
  const { version, personality } = shape;
  const { spec } = instance;
  const common = {
    ID: instance.id,
    Running: instance.running,
    ExitCode: instance.exitCode ?? (atLeast(version, '1.22') ? personality.runningExitCode : 0),
    ProcessConfig: { tty: spec.tty, entrypoint: instance.entrypoint, arguments: instance.args, privileged: spec.privileged ?? false, user: instance.user },
    OpenStdin: spec.attachStdin,
    OpenStderr: spec.attachStderr,
    OpenStdout: spec.attachStdout,
  };
  if (before(version, '1.22')) return { ...common, Container: containerInspect(instance.container, shape, containerExecIds) };
  return {
    ...common,
    // dockerd marks an instance for its periodic clean-up, which the reference does not run.
    CanRemove: false,
    ContainerID: instance.container.id,
    DetachKeys: (spec.detachKeys ?? Buffer.alloc(0)).toString('base64'),
    ...(personality.shows(version, '1.25') && { Pid: instance.pid }),
  };
}

export const execRoutes: Route[] = [
  { method: 'POST', path: '/containers/{id*}/exec', handle: createExec },
  { method: 'POST', path: '/exec/{id}/start', handle: startExec },
  { method: 'POST', path: '/exec/{id}/resize', handle: resizeExec },
  {
    method: 'GET',
    path: '/exec/{id}/json',
    handle: (context) => {
      const { version, dialect, personality, model } = context;
      const instance = execOf(context);
      sendJson(context.response, 200, execView(instance, { version, dialect, personality }, model.execs.openIdsOf(instance.container)));
    },
  },
];
