/** GET /info and GET /version as each API version shows them. */
import type { Dialect } from '../../../protocol/dialect.ts';
import { CURRENT_VERSION, OLDEST_VERSION, before } from '../../../protocol/versions.ts';
import type { DaemonInfo, DaemonVersion } from '../model/system/system-info.ts';
import { formatTimestamp } from '../model/common/timestamps.ts';

/** The info flags that became JSON booleans at 1.19; 1.18 sends them as 0 or 1. */
const INFO_FLAGS = [
  'Debug', 'IPv4Forwarding', 'KernelMemory', 'MemoryLimit', 'OomKillDisable', 'SwapLimit', 'ExperimentalBuild', 'CpuCfsPeriod', 'CpuCfsQuota',
] as const;

/** The daemon's root directory: the vendor names it, as it names the info field that shows it. */
export function engineRootDir(dialect: Dialect): string {
  return `/var/lib/${dialect.name}`;
}

export function infoView(info: DaemonInfo, version: string, dialect: Dialect): Record<string, unknown> {
  const view: Record<string, unknown> = {
    ...info,
    SystemTime: formatTimestamp(info.SystemTime),
    [dialect.rootDirInfoField]: engineRootDir(dialect),
  };
  if (before(version, '1.19')) {
    for (const flag of INFO_FLAGS) view[flag] = info[flag] ? 1 : 0;
  }
  return view;
}

/** The server's own API range, whatever version was requested: clients read it to pick theirs. */
export function versionView(daemon: DaemonVersion): Record<string, unknown> {
  return { ...daemon, ApiVersion: CURRENT_VERSION, MinAPIVersion: OLDEST_VERSION };
}
