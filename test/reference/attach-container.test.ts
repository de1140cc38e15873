/**
 * Attaching to a container in the model, on a manual clock: what refuses an attach, output from the
 * first byte for a client that attached before the start, stdin with and without StdinOnce, detach
 * keys on a terminal, and the events.
 */
import { describe, expect, test } from 'vitest';
import type { ContainerStreams } from '../../reference/engine/model/containers/container-attachment.ts';
import type { Container } from '../../reference/engine/model/containers/container.ts';
import { ConflictError, NotAttachableError } from '../../reference/engine/model/common/errors.ts';
import type { ProcessAttachment } from '../../reference/engine/model/containers/process-attachment.ts';
import { manualEngine, type ManualEngine } from './manual-engine.ts';

interface Attached {
  attachment: ProcessAttachment;
  /** what the client received so far, per stream */
  received: { stdout: string; stderr: string };
}

function attached(engine: ManualEngine, container: Container, streams: Partial<Omit<ContainerStreams, 'output'>> = {}): Attached {
  const received = { stdout: '', stderr: '' };
  const attachment = engine.model.attach.attach(container, {
    stdin: false,
    stdout: true,
    stderr: true,
    ...streams,
    output: (stream, chunk) => (received[stream] += chunk.toString('latin1')),
  });
  if (!attachment) throw new Error('no attachment for a streaming attach');
  return { attachment, received };
}

/** Resolves to the attachment's end reason, or 'open' when it has not ended after the engine's turn. */
async function endOf(engine: ManualEngine, attachment: ProcessAttachment): Promise<string> {
  let reason = 'open';
  void attachment.ended.then((value) => (reason = value));
  await engine.advance();
  return reason;
}

describe('refusals', () => {
  test('paused and exited containers are refused; an exited one only for streaming', async () => {
    const engine = manualEngine();
    const paused = engine.run(['sleep', '300']);
    engine.model.lifecycle.pause(paused);
    expect(() => engine.model.attach.check(paused, false)).toThrow(ConflictError);
    const exited = engine.run(['true']);
    await engine.advance();
    expect(() => engine.model.attach.check(exited, true)).toThrow(NotAttachableError);
    expect(() => engine.model.attach.check(exited, false)).not.toThrow();
    expect(() => engine.model.attach.check(engine.create(['true']), true)).not.toThrow();
  });
});

describe('output', () => {
  test('a client attached before the start gets the run from its first byte, stdout and stderr apart, and the attach ends with the process', async () => {
    const engine = manualEngine();
    const container = engine.create(['sh', '-c', 'echo out; echo err >&2']);
    const { attachment, received } = attached(engine, container);
    expect(engine.events).toEqual(['create', 'attach']);
    engine.model.lifecycle.start(container);
    expect(await endOf(engine, attachment)).toBe('exited');
    expect(received).toEqual({ stdout: 'out\n', stderr: 'err\n' });
  });

  test('only the chosen streams are sent; with a Tty stderr has joined stdout', async () => {
    const engine = manualEngine();
    const plain = engine.create(['sh', '-c', 'echo out; echo err >&2']);
    const onlyErr = attached(engine, plain, { stdout: false });
    const tty = engine.create(['sh', '-c', 'echo out; echo err >&2'], { config: { Tty: true } });
    const terminal = attached(engine, tty);
    engine.model.lifecycle.start(plain);
    engine.model.lifecycle.start(tty);
    await engine.advance();
    expect(onlyErr.received).toEqual({ stdout: '', stderr: 'err\n' });
    expect(terminal.received).toEqual({ stdout: 'out\r\nerr\r\n', stderr: '' });
  });

  test('a start that fails ends the attach that waited for it', async () => {
    const engine = manualEngine();
    const container = engine.create(['no-such-command']);
    const { attachment } = attached(engine, container);
    expect(() => engine.model.lifecycle.start(container)).toThrow(/executable file not found/);
    expect(await endOf(engine, attachment)).toBe('exited');
    expect(container.waitingAttachments.size).toBe(0);
  });

  test('removing a created container ends the attach that waited for it', async () => {
    const engine = manualEngine();
    const container = engine.create(['true']);
    const { attachment } = attached(engine, container);
    await engine.model.lifecycle.remove(container);
    expect(await endOf(engine, attachment)).toBe('exited');
  });
});

describe('stdin', () => {
  test('StdinOnce: the end of the client input ends the process stdin; the attach lasts until cat exits 0', async () => {
    const engine = manualEngine();
    const container = engine.create(['cat'], { config: { OpenStdin: true, StdinOnce: true } });
    const { attachment, received } = attached(engine, container, { stdin: true });
    engine.model.lifecycle.start(container);
    attachment.write(Buffer.from('hello\n'));
    await engine.advance();
    expect(received.stdout).toBe('hello\n');
    attachment.endInput();
    expect(await endOf(engine, attachment)).toBe('exited');
    expect(container.state).toMatchObject({ Running: false, ExitCode: 0 });
  });

  test('without StdinOnce the end of the client input ends the attach and the process keeps reading', async () => {
    const engine = manualEngine();
    const container = engine.run(['cat'], { config: { OpenStdin: true } });
    const { attachment } = attached(engine, container, { stdin: true });
    attachment.endInput();
    expect(await endOf(engine, attachment)).toBe('input-ended');
    expect(container.state.Running).toBe(true);
    const next = attached(engine, container, { stdin: true });
    next.attachment.write(Buffer.from('still here\n'));
    await engine.advance();
    expect(next.received.stdout).toBe('still here\n');
  });

  test('input written before the start reaches the process once it runs', async () => {
    const engine = manualEngine();
    const container = engine.create(['cat'], { config: { OpenStdin: true, StdinOnce: true } });
    const { attachment, received } = attached(engine, container, { stdin: true });
    attachment.write(Buffer.from('early\n'));
    attachment.endInput();
    engine.model.lifecycle.start(container);
    expect(await endOf(engine, attachment)).toBe('exited');
    expect(received.stdout).toBe('early\n');
  });

  test('without OpenStdin the client input goes nowhere: the process reads an empty stdin', async () => {
    const engine = manualEngine();
    const container = engine.create(['cat']);
    const { attachment, received } = attached(engine, container, { stdin: true });
    attachment.write(Buffer.from('ignored\n'));
    engine.model.lifecycle.start(container);
    expect(await endOf(engine, attachment)).toBe('exited');
    expect(received.stdout).toBe('');
  });

  test('a client that goes away with StdinOnce closes the process stdin', async () => {
    const engine = manualEngine();
    const container = engine.run(['cat'], { config: { OpenStdin: true, StdinOnce: true } });
    const { attachment } = attached(engine, container, { stdin: true });
    attachment.clientGone();
    expect(await endOf(engine, attachment)).toBe('client-gone');
    expect(container.state).toMatchObject({ Running: false, ExitCode: 0 });
  });
});

describe('detach keys', () => {
  test('ctrl-p ctrl-q on a terminal detach, leave the process running and publish detach; the keys never reach it', async () => {
    const engine = manualEngine();
    const container = engine.run(['cat'], { config: { OpenStdin: true, Tty: true } });
    const { attachment, received } = attached(engine, container, { stdin: true });
    attachment.write(Buffer.from('hi\x10'));
    await engine.advance();
    attachment.write(Buffer.from('\x11'));
    expect(await endOf(engine, attachment)).toBe('detached');
    // The terminal echoed what was typed and cat wrote it back; the held ctrl-p was never typed through.
    expect(received.stdout).toBe('hihi');
    expect(container.state.Running).toBe(true);
    expect(engine.events.slice(-2)).toEqual(['attach', 'detach']);
  });

  test('custom keys replace the default one', async () => {
    const engine = manualEngine();
    const container = engine.run(['cat'], { config: { OpenStdin: true, Tty: true } });
    const { attachment } = attached(engine, container, { stdin: true, detachKeys: Buffer.from([0x18]) });
    attachment.write(Buffer.from([0x10, 0x11]));
    expect(await endOf(engine, attachment)).toBe('open');
    attachment.write(Buffer.from([0x18]));
    expect(await endOf(engine, attachment)).toBe('detached');
  });

  test('without a terminal the keys are input like any other', async () => {
    const engine = manualEngine();
    const container = engine.run(['cat'], { config: { OpenStdin: true } });
    const { attachment, received } = attached(engine, container, { stdin: true });
    attachment.write(Buffer.from([0x10, 0x11]));
    expect(await endOf(engine, attachment)).toBe('open');
    expect(received.stdout).toBe('\x10\x11');
  });
});
