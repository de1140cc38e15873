/**
 * `--target container:IMAGE`: a daemon the run starts itself, in a container on the user's Docker
 * host (DOCKER_HOST, as testcontainers reads it), privileged because a daemon in a container makes
 * namespaces, cgroups and mounts. The image's daemon must listen on plain TCP (`port`, default 2375,
 * Docker's unencrypted port); the run waits for its GET /_ping, checks it, and removes the container
 * with its anonymous volumes (such as a /var/lib/docker) at the end, Ctrl-C included.
 */
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { GenericContainer, Wait, getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';
import { TargetError } from '../target.ts';

/** label on the container: `docker ps --filter label=shipshape.target` shows what runs started, and a failed start is found by it */
export const TARGET_LABEL = 'shipshape.target';
/** a daemon's first start in a fresh container (storage, networks, iptables) takes seconds, more on a loaded host */
const STARTUP_TIMEOUT_MS = 180_000;

/**
 * Capability names by bit, as far as Docker 20.10 knows them (it refuses later ones, such as
 * CAP_PERFMON, by name).
 */
const CAPABILITIES = [
  'CHOWN', 'DAC_OVERRIDE', 'DAC_READ_SEARCH', 'FOWNER', 'FSETID', 'KILL', 'SETGID', 'SETUID', 'SETPCAP',
  'LINUX_IMMUTABLE', 'NET_BIND_SERVICE', 'NET_BROADCAST', 'NET_ADMIN', 'NET_RAW', 'IPC_LOCK', 'IPC_OWNER',
  'SYS_MODULE', 'SYS_RAWIO', 'SYS_CHROOT', 'SYS_PTRACE', 'SYS_PACCT', 'SYS_ADMIN', 'SYS_BOOT', 'SYS_NICE',
  'SYS_RESOURCE', 'SYS_TIME', 'SYS_TTY_CONFIG', 'MKNOD', 'LEASE', 'AUDIT_WRITE', 'AUDIT_CONTROL', 'SETFCAP',
  'MAC_OVERRIDE', 'MAC_ADMIN', 'SYSLOG', 'WAKE_ALARM', 'BLOCK_SUSPEND', 'AUDIT_READ',
];

export interface StartedContainerTarget {
  /** `tcp://HOST:PORT` on the Docker host, as the run reaches the daemon */
  address: string;
  /** stops and removes the container with its anonymous volumes */
  remove(): Promise<void>;
}

export async function startContainerTarget(image: string, port: number): Promise<StartedContainerTarget> {
  let started: StartedTestContainer;
  try {
    started = await start(image, port, 'privileged');
  } catch (error) {
    // Docker 20.10's privileged mode asks for every capability it knows; on a host whose own bounding
    // set lacks one (this CI machine lacks CAP_SYS_RESOURCE) runc refuses. What a daemon needs of
    // privileged mode is then given piece by piece.
    if (!/unable to apply caps/.test(firstLine(error))) throw error;
    started = await start(image, port, 'bounded');
  }
  return {
    address: `tcp://${started.getHost()}:${started.getMappedPort(port)}`,
    remove: async () => {
      await started.stop({ remove: true, removeVolumes: true });
    },
  };
}

async function start(image: string, port: number, mode: 'privileged' | 'bounded'): Promise<StartedTestContainer> {
  const startId = randomUUID();
  let container = new GenericContainer(image)
    .withExposedPorts(port)
    .withLabels({ [TARGET_LABEL]: startId })
    .withWaitStrategy(Wait.forHttp('/_ping', port).forStatusCode(200))
    .withStartupTimeout(STARTUP_TIMEOUT_MS);
  container =
    mode === 'privileged'
      ? container.withPrivilegedMode()
      : container
          .withAddedCapabilities(...boundingCapabilities())
          .withSecurityOpt('seccomp=unconfined', 'apparmor=unconfined')
          .withBindMounts([{ source: '/sys/fs/cgroup', target: '/sys/fs/cgroup', mode: 'rw' }]);
  try {
    return await container.start();
  } catch (error) {
    // testcontainers removes a container that never got ready, but not one that failed to start.
    await removeByLabel(startId);
    throw new TargetError(`container:${image}: could not start it, or its daemon never answered GET /_ping on port ${port}: ${firstLine(error)}`);
  }
}

/** The capabilities this process's bounding set holds: the Docker host is this machine when privileged mode is refused by it. */
function boundingCapabilities(): string[] {
  const line = /^CapBnd:\s*([0-9a-f]+)$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  const mask = BigInt(`0x${line?.[1] ?? '0'}`);
  return CAPABILITIES.filter((_, bit) => (mask >> BigInt(bit)) & 1n);
}

async function removeByLabel(startId: string): Promise<void> {
  const client = await getContainerRuntimeClient();
  const left = await client.container.fetchByLabel(TARGET_LABEL, startId);
  if (left) await client.container.remove(left, { removeVolumes: true });
}

function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error).split('\n')[0] ?? '';
}
