/**
 * Exec instances (spec/1 §2.5, §3, §4.2): create, start (detached, attached with and without a Tty),
 * inspect, resize, and the states of the container that refuse them. Every command is from the fixture
 * command contract; every container comes from `make.container` and goes with the check.
 */
import { check, type CheckContext } from '../../harness/check.ts';
import type { ApiResponse } from '../../harness/client/api-response.ts';
import { assertMatchesSchema } from '../../harness/schemas/schema-check.ts';
import { EMBEDDED_CONTAINER_SCHEMA, EXEC_CREATE_RESPONSE_SCHEMA, execInspectSchema } from '../../harness/schemas/exec-schemas.ts';
import { decodeFrames } from '../../harness/streams/frame-decoder.ts';
import { until } from '../../harness/wait-until.ts';
import { atLeast } from '../../protocol/versions.ts';
import { exitedState, inspectContainer, pauseContainer, startedContainer } from '../container-steps.ts';
import { OUT_AND_ERR, STREAM_TIMEOUT_MS, streamText, upgradeHeaders } from '../stream-reading.ts';

interface ExecInspect {
  ID: string;
  Running: boolean;
  ExitCode: number | null;
  Container?: unknown;
}

/** Runs until the check's cleanup removes the container (a forced removal kills it). */
const LONG_RUNNING = ['sleep', '300'];
/** An id no daemon hands out: 64 hex digits that are not one of its exec ids. */
const UNKNOWN_EXEC_ID = 'f'.repeat(64);

/** Creates an exec instance; a target that cannot is not conforming, so the status is asserted. */
async function createdExec({ engine, expect }: CheckContext, containerId: string, body: Record<string, unknown>): Promise<string> {
  const res = await engine.post(`/containers/${containerId}/exec`, { json: body });
  expect(res.status, 'POST /containers/{id}/exec status').toBe(201);
  return res.json<{ Id: string }>().Id;
}

async function inspectExec({ engine, expect }: CheckContext, execId: string): Promise<ExecInspect> {
  const res = await engine.get(`/exec/${execId}/json`);
  expect(res.status, 'GET /exec/{id}/json status').toBe(200);
  return res.json<ExecInspect>();
}

/** Waits until the exec's command has exited; returns its inspect object. */
function finishedExec(context: CheckContext, execId: string): Promise<ExecInspect> {
  return until(() => inspectExec(context, execId), (seen) => !seen.Running && seen.ExitCode !== null, { what: 'the exec command to exit' });
}

/**
 * Starts an exec attached, without Upgrade: the answer's body is the whole output once the command
 * ends. A daemon that keeps the body open past the deadline makes the check an error (a hung stream).
 */
async function startAttached({ engine, expect }: CheckContext, execId: string, tty: boolean): Promise<ApiResponse> {
  const res = await engine.post(`/exec/${execId}/start`, { json: { Detach: false, Tty: tty }, signal: AbortSignal.timeout(STREAM_TIMEOUT_MS) });
  expect(res.status, 'POST /exec/{id}/start status').toBe(200);
  return res;
}

check('exec.create.schema', {
  title: 'POST /containers/{id}/exec on a running container answers 201 {Id, Warnings}',
  spec: '1 §2.5, §4.2',
  quote: ['Creation body: AttachStdin, AttachStdout, AttachStderr (boolean), DetachKeys (string, [1.25]), Tty (boolean), Cmd (string or array of string).', 'Creation response: Id (string), Warnings (array).', '| POST /containers/{id_or_name}/exec |', '201 {Id, Warnings} | 201, 404, 409 (container paused), 500 |'],
  since: '1.18',
  tags: ['schema'],
  covers: [
    '1:POST /containers/{id_or_name}/exec',
    '1:POST /containers/{id_or_name}/exec:body:AttachStdout',
    '1:POST /containers/{id_or_name}/exec:body:AttachStderr',
    '1:POST /containers/{id_or_name}/exec:body:Cmd',
    '1:POST /containers/{id_or_name}/exec:status:201',
    '1:version-rule:1.18:exec-warnings',
    '1:version-rule:1.24:exec-create-no-container-field',
  ],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const res = await context.engine.post(`/containers/${id}/exec`, { json: { Cmd: ['true'], AttachStdout: true } });
  context.expect(res.status, 'status').toBe(201);
  assertMatchesSchema(res.json(), EXEC_CREATE_RESPONSE_SCHEMA, 'the exec create answer');
});

/** Request → status: an exec instance (or the container of a create) that does not exist answers 404 (spec/1 §4.2, §7.2). */
for (const { id, request, ...meta } of [
  { id: 'exec.create.no-such-container', title: 'creating an exec instance in a container that does not exist answers 404', request: ({ engine, make }: CheckContext) => engine.post(`/containers/${make.uniqueName('missing')}/exec`, { json: { Cmd: ['true'] } }),
    spec: '1 §4.2, §7.2', quote: ['| POST /containers/{id_or_name}/exec |', '201 {Id, Warnings} | 201, 404, 409 (container paused), 500 |', '404 no such container, image, exec instance, volume, network, service or task'], covers: ['1:POST /containers/{id_or_name}/exec:status:404'] },
  { id: 'exec.start.no-such-exec', title: 'starting an exec instance that does not exist answers 404', request: ({ engine }: CheckContext) => engine.post(`/exec/${UNKNOWN_EXEC_ID}/start`, { json: { Detach: true, Tty: false } }),
    spec: '1 §4.2', quote: ['| POST /exec/{id}/start |', '200, 404 (no such exec instance), 409 (container paused or, from 1.21, stopped)'], covers: ['1:POST /exec/{id}/start:status:404'] },
  { id: 'exec.inspect.no-such-exec', title: 'inspecting an exec instance that does not exist answers 404', request: ({ engine }: CheckContext) => engine.get(`/exec/${UNKNOWN_EXEC_ID}/json`),
    spec: '1 §4.2, §7.2', quote: ['| GET /exec/{id}/json |', '200, 404, 500', '404 no such container, image, exec instance, volume, network, service or task'], covers: ['1:GET /exec/{id}/json:status:404'] },
  { id: 'exec.resize.no-such-exec', title: 'resizing an exec instance that does not exist answers 404', request: ({ engine }: CheckContext) => engine.post(`/exec/${UNKNOWN_EXEC_ID}/resize`, { query: { h: 40, w: 100 } }),
    spec: '1 §4.2, §7.2', quote: ['| POST /exec/{id}/resize |', '201 `text/plain` | 201, 404 |', '404 no such container, image, exec instance, volume, network, service or task'], covers: ['1:POST /exec/{id}/resize:status:404'] },
]) {
  check(id, { ...meta, since: '1.18', tags: ['error'] }, async (context) => {
    const res = await request(context);
    context.expect(res.status, 'status').toBe(404);
  });
}

check('exec.create.paused', {
  title: 'creating an exec instance in a paused container answers 409',
  spec: '1 §3',
  quote: ['| exec create, exec start | container is paused | 409 |'],
  since: '1.18',
  tags: ['state', 'error'],
  covers: ['1:POST /containers/{id_or_name}/exec:status:409'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  await pauseContainer(context, id);
  const res = await context.engine.post(`/containers/${id}/exec`, { json: { Cmd: ['true'] } });
  context.expect(res.status, 'status').toBe(409);
});

check('exec.start.paused', {
  title: 'starting an exec instance whose container is paused answers 409',
  spec: '1 §3',
  quote: ['| exec create, exec start | container is paused | 409 |'],
  since: '1.18',
  tags: ['state', 'error'],
  covers: ['1:POST /exec/{id}/start:status:409'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const execId = await createdExec(context, id, { Cmd: ['true'] });
  await pauseContainer(context, id);
  const res = await context.engine.post(`/exec/${execId}/start`, { json: { Detach: true, Tty: false } });
  context.expect(res.status, 'status').toBe(409);
});

check('exec.start.stopped', {
  title: 'starting an exec instance whose container has stopped answers 409 from 1.21',
  spec: '1 §4.2',
  quote: ['| POST /exec/{id}/start |', '200, 404 (no such exec instance), 409 (container paused or, from 1.21, stopped)'],
  // "from 1.21, stopped": of earlier versions the spec says nothing (exec.start.stopped.before-1.21 has dockerd's answer)
  since: '1.21',
  tags: ['state', 'error', 'version'],
  covers: ['1:POST /exec/{id}/start:status:409', '1:version-rule:1.21:exec-start-409-stopped'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const execId = await createdExec(context, id, { Cmd: ['true'] });
  const stop = await context.engine.post(`/containers/${id}/stop`, { query: { t: 0 } });
  context.expect(stop.status, 'POST /containers/{id}/stop status').toBe(204);
  // Whether stop answers before or after the container has stopped §4.1 does not say: wait for it.
  await exitedState(context, id, 'the container to stop');
  const res = await context.engine.post(`/exec/${execId}/start`, { json: { Detach: true, Tty: false } });
  context.expect(res.status, 'status').toBe(409);
});

check('exec.start.stopped.before-1.21', {
  title: 'starting an exec instance whose container has stopped is refused before 1.21 too (an error status), as dockerd refuses it at every version',
  // spec/1 §4.2 gives the 409 for a stopped container "from 1.21"; of earlier versions it says nothing
  spec: '1 §4.2',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  until: '1.20',
  tags: ['state', 'error', 'version'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const execId = await createdExec(context, id, { Cmd: ['true'] });
  const stop = await context.engine.post(`/containers/${id}/stop`, { query: { t: 0 } });
  context.expect(stop.status, 'POST /containers/{id}/stop status').toBe(204);
  const res = await context.engine.post(`/exec/${execId}/start`, { json: { Detach: true, Tty: false } });
  context.expect(res.status, 'status (an error)').toBeGreaterThanOrEqual(400);
});

check('exec.start.detach', {
  title: 'start with Detach answers 200 once the command has started; its exit code shows in inspect later',
  spec: '1 §4.2, §2.5',
  quote: ['| POST /exec/{id}/start |', '200 `application/vnd.engine.raw-stream`; with Detach true the call returns after the command starts', 'Start body: Detach (boolean), Tty (boolean).', 'ExitCode (integer)', 'Running (boolean)'],
  since: '1.18',
  tags: ['state'],
  covers: ['1:POST /exec/{id}/start', '1:POST /exec/{id}/start:body:Detach', '1:POST /exec/{id}/start:status:200'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const execId = await createdExec(context, id, { Cmd: ['sh', '-c', 'sleep 1; exit 7'] });
  const res = await context.engine.post(`/exec/${execId}/start`, { json: { Detach: true, Tty: false } });
  context.expect(res.status, 'status').toBe(200);
  // "Returns after the command starts": right after the answer the command runs or has already run.
  const justAfter = await inspectExec(context, execId);
  context.expect(justAfter.Running || justAfter.ExitCode === 7, `exec inspect right after the detached start: ${JSON.stringify({ Running: justAfter.Running, ExitCode: justAfter.ExitCode })}`).toBe(true);
  const finished = await finishedExec(context, execId);
  context.expect(finished.ExitCode, 'ExitCode once the command ended').toBe(7);
});

check('exec.start.multiplexed', {
  title: 'an attached start without Tty answers 200 raw-stream, stdout in frames of type 1 and stderr in frames of type 2',
  spec: '1 §4.4, §4.2',
  quote: ['When Tty is disabled, the stream is multiplexed into frames.', 'Header: byte 0 is the stream type (0 stdin, written on stdout; 1 stdout; 2 stderr), bytes 1 to 3 are zero, bytes 4 to 7 are the payload size as an unsigned 32-bit big-endian integer.', 'Without the header the status is 200.', '| POST /exec/{id}/start |', '200 `application/vnd.engine.raw-stream`'],
  since: '1.18',
  tags: ['stream'],
  covers: [
    '1:POST /exec/{id}/start',
    '1:POST /exec/{id}/start:status:200',
    '1:POST /containers/{id_or_name}/exec:body:AttachStdout',
    '1:POST /containers/{id_or_name}/exec:body:AttachStderr',
  ],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const execId = await createdExec(context, id, { Cmd: OUT_AND_ERR, AttachStdout: true, AttachStderr: true, Tty: false });
  const res = await startAttached(context, execId, false);
  context.expect(res.contentType, 'Content-Type').toBe(context.dialect.rawStreamContentType);
  // Strict decoding: bad framing throws FrameError, which fails the check (the target's fault).
  const { frames } = decodeFrames(res.body);
  const seen = { stdout: streamText(frames, 'stdout'), stderr: streamText(frames, 'stderr'), stdin: streamText(frames, 'stdin') };
  context.expect(seen, `output per stream: ${JSON.stringify(seen)}`).toEqual({ stdout: 'out\n', stderr: 'err\n', stdin: '' });
});

check('exec.start.tty', {
  title: 'an attached start with Tty streams the raw terminal: no frames, stderr joined to stdout',
  spec: '1 §4.4, §2.5',
  quote: ['When Tty was enabled at create, the stream is the raw data of the process pseudo-terminal and the client stdin (no framing).', 'Without the header the status is 200.', 'Creation body: AttachStdin, AttachStdout, AttachStderr (boolean), DetachKeys (string, [1.25]), Tty (boolean), Cmd (string or array of string).', 'Start body: Detach (boolean), Tty (boolean).'],
  since: '1.18',
  tags: ['stream'],
  covers: ['1:POST /containers/{id_or_name}/exec:body:Tty', '1:POST /exec/{id}/start:body:Tty'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const execId = await createdExec(context, id, { Cmd: OUT_AND_ERR, AttachStdout: true, AttachStderr: true, Tty: true });
  const { body } = await startAttached(context, execId, true);
  // The terminal may write a line's end as \r\n (a pseudo-terminal's line discipline does): the spec says only "raw data".
  context.expect(body.toString('latin1'), 'the raw stream').toMatch(/^out\r?\nerr\r?\n$/);
});

check('exec.start.tty-crlf', {
  title: 'an attached exec start with Tty carries the pseudo-terminal\'s output with each \\n written as \\r\\n',
  // spec/1 §4.4.2 says "the raw data of the process pseudo-terminal"; how the terminal writes a line's end it does not say
  spec: '1 §4.4',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['stream'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const execId = await createdExec(context, id, { Cmd: OUT_AND_ERR, AttachStdout: true, AttachStderr: true, Tty: true });
  const { body } = await startAttached(context, execId, true);
  context.expect(body.toString('latin1'), 'the raw stream').toBe('out\r\nerr\r\n');
});

check('exec.start.upgrade', {
  title: 'an attached start with Upgrade: tcp answers 101 repeating Upgrade: tcp and Connection: Upgrade, with the raw-stream Content-Type, and the stream carries the output in frames',
  spec: '1 §4.4',
  quote: ['Hijacking: a client sends headers `Upgrade: tcp` and `Connection: Upgrade`.', 'When the daemon sees the Upgrade header it answers 101 UPGRADED (instead of 200 OK), repeats the same headers, and sets Content-Type `application/vnd.engine.raw-stream`.', 'When Tty is disabled, the stream is multiplexed into frames.', 'Header: byte 0 is the stream type (0 stdin, written on stdout; 1 stdout; 2 stderr), bytes 1 to 3 are zero, bytes 4 to 7 are the payload size as an unsigned 32-bit big-endian integer.'],
  since: '1.18',
  tags: ['stream'],
  covers: ['1:POST /exec/{id}/start', '1:POST /exec/{id}/start:header:Upgrade'],
}, async (context) => {
  // §4.4 (attach, logs, exec start): the daemon that sees the Upgrade header answers 101, though the
  // exec start row lists 200, 404 and 409 only: the section on streams names exec start outright.
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const execId = await createdExec(context, id, { Cmd: OUT_AND_ERR, AttachStdout: true, AttachStderr: true, Tty: false });
  // hijack() resolves only on a 101 answer: any other status rejects it, and the exchange log shows it.
  const stream = await context.engine.hijack(`/exec/${execId}/start`, { json: { Detach: false, Tty: false } });
  try {
    const received = await stream.readToEnd(STREAM_TIMEOUT_MS);
    context.expect(upgradeHeaders(stream.headers), 'headers of the 101 answer').toEqual({ upgrade: 'tcp', connection: 'upgrade', contentType: context.dialect.rawStreamContentType });
    const { stdout, stderr } = decodeFrames(received);
    context.expect({ stdout: stdout.toString('utf8'), stderr: stderr.toString('utf8') }, 'output per stream').toEqual({ stdout: 'out\n', stderr: 'err\n' });
  } finally {
    stream.close();
  }
});

check('exec.start.detach-keys', {
  title: 'an exec created with DetachKeys (1.25) is taken (201) and its attached start carries the command\'s output',
  // What sending the keys does, and their form for an exec, spec/1 §2.5 does not say: only that the
  // creation body has DetachKeys (string) at 1.25. ctrl-x has the form §4.1 gives the start's detachKeys.
  spec: '1 §2.5, §4.2, §4.4',
  quote: [
    'Creation body: AttachStdin, AttachStdout, AttachStderr (boolean), DetachKeys (string, [1.25]), Tty (boolean), Cmd (string or array of string).',
    '| POST /containers/{id_or_name}/exec |',
    '201 {Id, Warnings} | 201, 404, 409 (container paused), 500 |',
    'When the daemon sees the Upgrade header it answers 101 UPGRADED (instead of 200 OK), repeats the same headers, and sets Content-Type `application/vnd.engine.raw-stream`.',
    'When Tty was enabled at create, the stream is the raw data of the process pseudo-terminal and the client stdin (no framing).',
  ],
  since: '1.25',
  tags: ['stream'],
  covers: ['1:POST /containers/{id_or_name}/exec:body:DetachKeys', '1:POST /containers/{id_or_name}/exec:body:AttachStdin'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const res = await context.engine.post(`/containers/${id}/exec`, {
    json: { Cmd: ['sh', '-c', 'echo ready; sleep 300'], AttachStdin: true, AttachStdout: true, Tty: true, DetachKeys: 'ctrl-x' },
  });
  // The answer's shape is exec.create.schema's rule: here only that the DetachKeys are taken.
  context.expect(res.status, `POST /containers/{id}/exec status: ${res.text().trim()}`).toBe(201);
  // hijack() resolves only on a 101 answer; a session that never carries the output is a timeout, the target's fault.
  const stream = await context.engine.hijack(`/exec/${res.json<{ Id: string }>().Id}/start`, { json: { Detach: false, Tty: true } });
  try {
    await stream.readUntil((received) => received.includes('ready'), STREAM_TIMEOUT_MS);
    context.expect(stream.received.toString('latin1'), 'the raw stream').toMatch(/ready/);
  } finally {
    stream.close();
  }
});

/** The stdout of an exec of `cmd` (with `extra` create fields) started attached without a Tty. */
async function execOutput(context: CheckContext, containerId: string, cmd: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const execId = await createdExec(context, containerId, { Cmd: cmd, AttachStdout: true, AttachStderr: true, Tty: false, ...extra });
  const { frames } = decodeFrames((await startAttached(context, execId, false)).body);
  return streamText(frames, 'stdout') + streamText(frames, 'stderr');
}

check('exec.create.env', {
  title: "an exec's Env replaces the container's variables of the same name and adds the others; the container's other variables stay",
  // spec/1 §2.5 lists no Env in the creation body; dockerd 20.10 takes it at every version
  // (ReplaceOrAppendEnvValues over the container's environment)
  spec: '1 §2.5',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING, Env: ['SHARED=container', 'KEPT=container'] });
  const output = await execOutput(context, id, ['sh', '-c', 'echo "$SHARED $KEPT $ADDED"'], { Env: ['SHARED=exec', 'ADDED=exec'] });
  context.expect(output, 'the exec sees its own SHARED and ADDED, and the container\'s KEPT').toBe('exec container exec\n');
});

check('exec.create.user', {
  title: "an exec's User runs its command as that user, whatever the container's user, and exec inspect shows it in ProcessConfig.user at 1.25",
  // spec/1 §2.5 lists ProcessConfig.user in the inspect answer at 1.25 but no User in the creation body
  spec: '1 §2.5',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const execId = await createdExec(context, id, { Cmd: ['id', '-u'], AttachStdout: true, User: '65534' });
  const { frames } = decodeFrames((await startAttached(context, execId, false)).body);
  context.expect(streamText(frames, 'stdout'), 'id -u in the exec').toBe('65534\n');
  if (atLeast(context.version, '1.25')) {
    const inspected = (await inspectExec(context, execId)) as ExecInspect & { ProcessConfig?: { user?: unknown; privileged?: unknown } };
    context.expect({ user: inspected.ProcessConfig?.user, privileged: inspected.ProcessConfig?.privileged }, 'ProcessConfig at 1.25').toEqual({ user: '65534', privileged: false });
  }
});

check('exec.create.privileged-shown', {
  title: 'an exec created with Privileged shows ProcessConfig.privileged true in exec inspect at 1.25 (before any start)',
  spec: '1 §2.5',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.25',
  tags: ['state'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const execId = await createdExec(context, id, { Cmd: ['true'], Privileged: true });
  const inspected = (await inspectExec(context, execId)) as ExecInspect & { ProcessConfig?: { privileged?: unknown } };
  context.expect(inspected.ProcessConfig?.privileged, 'ProcessConfig.privileged').toBe(true);
});

check('exec.create.detach-keys.invalid-every-version', {
  title: 'exec create with DetachKeys that are no key sequence is refused at every version (400, or dockerd 20.10\'s 500), naming the keys, as dockerd reads them before 1.25 too',
  // spec/1 §2.5 marks DetachKeys [1.25]; of earlier versions, and of the status for bad keys, it says nothing
  spec: '1 §2.5',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['error'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const res = await context.engine.post(`/containers/${id}/exec`, { json: { Cmd: ['true'], DetachKeys: 'ctrl-shipshape' } });
  context.expect([400, 500], `status: ${res.text().trim()}`).toContain(res.status);
  context.expect(res.text(), 'the refusal names the keys').toContain('ctrl-shipshape');
});

check('exec.inspect.schema', {
  title: 'GET /exec/{id}/json of an exec that ran answers 200 with the exec inspect fields of the version',
  spec: '1 §2.5, §4.2',
  quote: ['Inspect response at 1.25: CanRemove (boolean), ContainerID, DetachKeys, ExitCode (integer), ID, OpenStderr, OpenStdin, OpenStdout (boolean), ProcessConfig {arguments (array of string), entrypoint, privileged (boolean), tty (boolean), user}, Running (boolean).', '| GET /exec/{id}/json |', '200 exec inspect (2.5)'],
  since: '1.18',
  tags: ['schema'],
  covers: ['1:GET /exec/{id}/json', '1:GET /exec/{id}/json:status:200'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const execId = await createdExec(context, id, { Cmd: ['true'], AttachStdout: true });
  await startAttached(context, execId, false);
  const finished = await finishedExec(context, execId);
  assertMatchesSchema(finished, execInspectSchema(context.version), `exec inspect at ${context.version}`);
  if (atLeast(context.version, '1.25')) {
    // The ids of 1.25 against what the check did: its exec, in its container. How the Open* flags and
    // ProcessConfig.tty relate to the create body the spec does not say (exec.inspect.open-streams).
    const { ID, ContainerID } = finished as ExecInspect & Record<string, unknown>;
    context.expect({ ID, ContainerID }, 'the exec inspect ids at 1.25').toEqual({ ID: execId, ContainerID: id });
  }
});

check('exec.inspect.open-streams', {
  title: 'exec inspect at 1.25 shows OpenStdin, OpenStdout and OpenStderr as the Attach flags of the create (an omitted one false), and ProcessConfig.tty false without Tty',
  // spec/1 §2.5 lists OpenStdin, OpenStdout, OpenStderr (boolean) and ProcessConfig.tty, but neither
  // their relation to the creation body nor the defaults of the Attach flags
  spec: '1 §2.5',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.25',
  tags: ['schema'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const execId = await createdExec(context, id, { Cmd: ['true'], AttachStdout: true });
  await startAttached(context, execId, false);
  const finished = await finishedExec(context, execId);
  const { OpenStdin, OpenStdout, OpenStderr, ProcessConfig } = finished as ExecInspect & Record<string, unknown> & { ProcessConfig?: { tty?: unknown } };
  context.expect({ OpenStdin, OpenStdout, OpenStderr, tty: ProcessConfig?.tty }, 'the exec inspect flags at 1.25')
    .toEqual({ OpenStdin: false, OpenStdout: true, OpenStderr: false, tty: false });
});

check('exec.inspect.container', {
  title: 'exec inspect embeds the Container object (State, Config, NetworkSettings) at 1.21',
  spec: '1 §2.5, §2.2',
  quote: ['At 1.21 the inspect response also embeds a Container object (State, Config, NetworkSettings and the other container fields).', 'Running (boolean)'],
  // "At 1.21 the inspect response also embeds a Container object": of other versions the spec says nothing.
  since: '1.21',
  until: '1.21',
  tags: ['schema', 'version'],
  covers: ['1:GET /exec/{id}/json', '1:version-rule:1.21:exec-inspect-container'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const execId = await createdExec(context, id, { Cmd: ['true'] });
  const inspected = await inspectExec(context, execId);
  context.expect(inspected.Container, 'the embedded Container').toBeDefined();
  assertMatchesSchema(inspected.Container, EMBEDDED_CONTAINER_SCHEMA, 'the embedded Container');
});

/** A running container's inspect ExecIDs, sorted (the spec gives no order); null stays null. */
async function execIdsOf(context: CheckContext, id: string): Promise<string[] | null> {
  return (await inspectContainer<{ ExecIDs: string[] | null }>(context, id)).ExecIDs?.sort() ?? null;
}

check('exec.container-exec-ids', {
  title: "container inspect's ExecIDs is [] or null before any exec instance, and lists the exec instances created in the container (in any order)",
  spec: '1 §2.2',
  quote: ['ExecIDs (array or null)'],
  since: '1.18',
  tags: ['state'],
  covers: ['1:GET /containers/{id_or_name}/json'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const before = await execIdsOf(context, id);
  context.expect(before === null || before.length === 0, `ExecIDs before any exec ("array or null"): ${JSON.stringify(before)}`).toBe(true);
  const both = [await createdExec(context, id, { Cmd: ['true'] }), await createdExec(context, id, { Cmd: ['true'] })].sort();
  context.expect(await execIdsOf(context, id), 'ExecIDs with two created execs').toEqual(both);
});

check('exec.container-exec-ids.ended-dropped', {
  title: 'ExecIDs is null before any exec, as dockerd has it, and drops an exec instance once its command has ended',
  spec: '1 §2.2',
  level: 'docker',
  seen: 'dockerd 20.10.24',
  since: '1.18',
  tags: ['state'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  context.expect(await execIdsOf(context, id), 'ExecIDs before any exec').toBeNull();
  const waiting = await createdExec(context, id, { Cmd: ['true'] });
  const quick = await createdExec(context, id, { Cmd: ['true'] });
  await startAttached(context, quick, false);
  await finishedExec(context, quick);
  // dockerd marks the exec ended a moment before it drops it from the container: wait, don't sample.
  await until(() => execIdsOf(context, id), (seen) => JSON.stringify(seen) === JSON.stringify([waiting]), {
    what: `ExecIDs to hold only the exec that has not ended (${waiting}) once the started one has ended`,
  });
});

check('exec.inspect.content-type', {
  title: 'exec inspect answers with Content-Type application/json at 1.25',
  spec: '1 §4.2',
  quote: ['| GET /exec/{id}/json |', '200 exec inspect (2.5); content type is application/json at 1.25'],
  since: '1.25',
  tags: ['schema'],
  covers: ['1:GET /exec/{id}/json', '1:version-rule:1.25:exec-inspect-json-content-type'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const execId = await createdExec(context, id, { Cmd: ['true'] });
  const res = await context.engine.get(`/exec/${execId}/json`);
  context.expect(res.status, 'status').toBe(200);
  context.expect(res.contentType, 'Content-Type').toMatch(/^application\/json\b/);
});

check('exec.inspect.exit-code', {
  title: "exec inspect shows the command's exit code once it has ended: 5 after sh -c 'exit 5'",
  spec: '1 §2.5, §4.2',
  quote: ['ExitCode (integer)', 'Running (boolean)', '| GET /exec/{id}/json |', '200 exec inspect (2.5)'],
  since: '1.18',
  tags: ['state'],
  covers: ['1:GET /exec/{id}/json', '1:GET /exec/{id}/json:status:200'],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const execId = await createdExec(context, id, { Cmd: ['sh', '-c', 'exit 5'], AttachStdout: true });
  await startAttached(context, execId, false);
  const finished = await finishedExec(context, execId);
  context.expect({ Running: finished.Running, ExitCode: finished.ExitCode }, 'Running and ExitCode').toEqual({ Running: false, ExitCode: 5 });
});

check('exec.resize.tty', {
  title: 'resizing a running exec that has a Tty answers 201',
  spec: '1 §4.2',
  quote: ['| POST /exec/{id}/resize |', 'h, w (characters; valid only if Tty was set at create and start)', '201 `text/plain` | 201, 404 |'],
  since: '1.18',
  tags: ['state'],
  covers: [
    '1:POST /exec/{id}/resize',
    '1:POST /exec/{id}/resize:query:h',
    '1:POST /exec/{id}/resize:query:w',
    '1:POST /exec/{id}/resize:status:201',
    '1:POST /containers/{id_or_name}/exec:body:Tty',
    '1:POST /exec/{id}/start:body:Tty',
  ],
}, async (context) => {
  const id = await startedContainer(context, { Cmd: LONG_RUNNING });
  const execId = await createdExec(context, id, { Cmd: ['sleep', '300'], Tty: true });
  const start = await context.engine.post(`/exec/${execId}/start`, { json: { Detach: true, Tty: true } });
  context.expect(start.status, 'POST /exec/{id}/start (Detach) status').toBe(200);
  await until(() => inspectExec(context, execId), (seen) => seen.Running, { what: 'the exec command to run' });
  const res = await context.engine.post(`/exec/${execId}/resize`, { query: { h: 40, w: 100 } });
  context.expect(res.status, 'status').toBe(201);
});
