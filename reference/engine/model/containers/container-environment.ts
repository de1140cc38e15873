/**
 * The environment a container's process starts with, built as dockerd and runc build it: PATH and
 * HOSTNAME (and TERM with a Tty) first, then what links give, replaced or followed by Config.Env, then HOME from the
 * user's passwd entry when nothing set it.
 */
import type { ContainerConfig } from './container-config.ts';

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const nameOf = (entry: string) => entry.split('=', 1)[0] ?? entry;

export function containerEnvironment(config: ContainerConfig, home: string, links: readonly string[] = []): string[] {
  const env = [`PATH=${DEFAULT_PATH}`, `HOSTNAME=${config.Hostname}`, ...(config.Tty ? ['TERM=xterm'] : []), ...links];
  for (const entry of config.Env) {
    const at = env.findIndex((existing) => nameOf(existing) === nameOf(entry));
    if (at >= 0) env[at] = entry;
    else env.push(entry);
  }
  if (!env.some((entry) => nameOf(entry) === 'HOME')) env.push(`HOME=${home}`);
  return env;
}
