/**
 * Starting a container's PID 1 from its config, as runc starts it: the user looked up in the
 * container's own passwd file, the working directory made when missing, the environment dockerd
 * builds, Entrypoint + Cmd as argv, in a new pid namespace on the engine's clock.
 */
import { FilesystemError } from '../filesystem/container-filesystem.ts';
import { startProcess, type Scheduler, type SimulatedProcess } from '../process/index.ts';
import type { Container } from './container.ts';
import { containerEnvironment } from './container-environment.ts';
import { resolveUser } from './container-user.ts';
import { EngineError } from './errors.ts';

/** Throws ExecError when argv[0] names nothing that runs, EngineError for a bad user or working directory. */
export function spawnContainerProcess(container: Container, scheduler: Scheduler): SimulatedProcess {
  const { config, filesystem } = container;
  const user = resolveUser(config.User, filesystem);
  if (config.WorkingDir) {
    try {
      filesystem.mkdir(config.WorkingDir, { parents: true });
    } catch (error) {
      if (!(error instanceof FilesystemError)) throw error;
      throw new EngineError(`Cannot mkdir: ${config.WorkingDir} is not a directory`);
    }
  }
  return startProcess({
    argv: [...(config.Entrypoint ?? []), ...(config.Cmd ?? [])],
    env: containerEnvironment(config, user.home),
    workingDir: config.WorkingDir || '/',
    hostname: config.Hostname,
    user: { uid: user.uid, gid: user.gid, ...(user.name !== undefined && { name: user.name }) },
    tty: config.Tty,
    openStdin: config.OpenStdin,
    filesystem,
    scheduler,
  });
}
