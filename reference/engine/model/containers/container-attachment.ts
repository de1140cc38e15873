/**
 * Attaching clients to a container's streams (spec/1 §4.1 attach, §3): what refuses an attach, the
 * `attach` and `detach` events dockerd publishes, and the attachment itself — to the running process,
 * or, for a container not started yet, to the process its start will run. The container's settings
 * decide the rest: stdin only with OpenStdin, StdinOnce closes it with the client, Tty makes the
 * stream a terminal with detach keys.
 */
import type { Container } from './container.ts';
import type { ContainerEvents } from './container-events.ts';
import { ConflictError, NotAttachableError } from '../common/errors.ts';
import { ProcessAttachment, type OutputStreamName } from './process-attachment.ts';

export interface ContainerStreams {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  /** default ctrl-p ctrl-q */
  detachKeys?: Buffer;
  output: (stream: OutputStreamName, chunk: Buffer) => void;
}

export class ContainerAttach {
  constructor(private readonly events: ContainerEvents) {}

  /**
   * Refuses an attach that cannot work, before the client is answered: a paused or restarting
   * container (dockerd's conflicts) and, for streaming, one that has run and stopped — no process
   * will produce its streams until someone starts it again (spec/1 §3: 406).
   */
  check(container: Container, streaming: boolean): void {
    if (container.state.Paused) throw new ConflictError(`container ${container.id} is paused, unpause the container before attach`);
    if (container.state.Restarting) throw new ConflictError(`container ${container.id} is restarting, wait until the container is running`);
    if (streaming && (container.state.Status === 'exited' || container.state.Status === 'dead')) {
      throw new NotAttachableError(`container ${container.id} is not running: impossible to attach to its streams`);
    }
  }

  /** Publishes `attach` (a log replay alone counts too); with streams, attaches them and returns the attachment. */
  attach(container: Container, streams?: ContainerStreams): ProcessAttachment | undefined {
    this.events.publish(container, 'attach');
    if (!streams) return undefined;
    const { config } = container;
    const attachment = new ProcessAttachment({
      stdin: streams.stdin && config.OpenStdin,
      stdout: streams.stdout,
      stderr: streams.stderr,
      tty: config.Tty,
      closeStdin: config.StdinOnce,
      detachKeys: streams.detachKeys,
      output: streams.output,
    });
    void attachment.ended.then((reason) => {
      if (reason === 'detached') this.events.publish(container, 'detach');
    });
    if (container.process) attachment.connect(container.process);
    else waitForStart(container, attachment);
    return attachment;
  }
}

/** Connected by the start (spawnContainerProcess); a start that fails, or the removal, ends the wait. */
function waitForStart(container: Container, attachment: ProcessAttachment): void {
  const giveUp = () => {
    if (!attachment.connected) attachment.abandon();
  };
  container.waitingAttachments.add(attachment);
  container.stopWaiters.add(giveUp);
  void attachment.ended.then(() => {
    container.waitingAttachments.delete(attachment);
    container.stopWaiters.delete(giveUp);
  });
}
