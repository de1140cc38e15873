/**
 * Starting processes in a container, as runc starts them: the user looked up in the container's own
 * passwd file, the environment dockerd builds, the container's working directory and hostname. PID 1
 * runs Entrypoint + Cmd in a new pid namespace on the engine's clock, with the clients that attached
 * before the start wired to it; an exec instance's process joins the namespace of the running PID 1.
 */
import { FilesystemError } from '../../filesystem/container-filesystem.ts';
import { startProcess, type NetworkView, type PidNamespace, type Scheduler, type SimulatedProcess } from '../../process/index.ts';
import type { Container } from './container.ts';
import { containerEnvironment } from './container-environment.ts';
import { resolveUser } from './container-user.ts';
import { EngineError } from '../common/errors.ts';

export interface ContainerCommand {
  argv: string[];
  /** an exec's own `NAME=value` entries, replacing or following the container's (dockerd's ReplaceOrAppendEnvValues) */
  env?: string[];
  /** Config.User syntax; '' for root */
  user: string;
  tty: boolean;
  /** stdin is a pipe the engine writes to; otherwise the process reads /dev/null */
  openStdin: boolean;
}

/** Throws ExecError when argv[0] names nothing that runs, EngineError for a bad user or working directory. */
export function spawnContainerProcess(container: Container, scheduler: Scheduler, network: NetworkView): SimulatedProcess {
  const { config, filesystem } = container;
  if (config.WorkingDir) {
    try {
      filesystem.mkdir(config.WorkingDir, { parents: true });
    } catch (error) {
      if (!(error instanceof FilesystemError)) throw error;
      throw new EngineError(`Cannot mkdir: ${config.WorkingDir} is not a directory`);
    }
  }
  const command = { argv: [...(config.Entrypoint ?? []), ...(config.Cmd ?? [])], user: config.User, tty: config.Tty, openStdin: config.OpenStdin };
  const process = startInContainer(container, command, network, { scheduler });
  // Clients that attached before the start get this run's output from its first byte.
  for (const attachment of container.waitingAttachments) attachment.connect(process);
  container.waitingAttachments.clear();
  return process;
}

/** A process beside PID 1 in its namespace (an exec instance's); the container must be running. */
export function spawnExecProcess(container: Container, namespace: PidNamespace, command: ContainerCommand, network: NetworkView): SimulatedProcess {
  return startInContainer(container, command, network, { namespace });
}

function startInContainer(container: Container, command: ContainerCommand, network: NetworkView, place: { scheduler: Scheduler } | { namespace: PidNamespace }): SimulatedProcess {
  const { config, filesystem } = container;
  const user = resolveUser(command.user, filesystem, (container.hostConfig.GroupAdd as string[] | null) ?? []);
  return startProcess({
    argv: command.argv,
    // TERM follows the process's own terminal, not the container's.
    env: containerEnvironment({ ...config, Env: [...config.Env, ...(command.env ?? [])], Tty: command.tty }, user.home, container.linkEnvironment),
    workingDir: config.WorkingDir || '/',
    hostname: config.Hostname,
    user: { uid: user.uid, gid: user.gid, extraGroups: user.extraGroups, ...(user.name !== undefined && { name: user.name }) },
    tty: command.tty,
    openStdin: command.openStdin,
    filesystem,
    network,
    ...place,
  });
}
