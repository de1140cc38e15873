/**
 * The user a container's process runs as, from Config.User (`name`, `uid`, `name:group`, `uid:gid`)
 * looked up in the container's own /etc/passwd and /etc/group, as runc looks it up at start — with
 * the home directory runc puts in HOME when the environment has none.
 */
import type { ContainerFilesystem } from '../../filesystem/container-filesystem.ts';
import { EngineError } from '../common/errors.ts';

export interface ContainerUser {
  uid: number;
  gid: number;
  /** undefined for a numeric uid that /etc/passwd does not list */
  name: string | undefined;
  home: string;
  /** the groups HostConfig.GroupAdd gives, by number */
  extraGroups: number[];
}

const NUMERIC = /^\d+$/;

/** @param groupAdd HostConfig.GroupAdd: group names (looked up in /etc/group) or numbers */
export function resolveUser(spec: string, fs: ContainerFilesystem, groupAdd: readonly string[] = []): ContainerUser {
  const [userPart = '', groupPart] = spec.split(':', 2);
  const user = userPart === '' ? '0' : userPart;
  const entry = databaseLines(fs, '/etc/passwd').find((fields) => (NUMERIC.test(user) ? fields[2] === user : fields[0] === user));
  if (!entry && !NUMERIC.test(user)) throw new EngineError(`unable to find user ${user}: no matching entries in passwd file`);
  const uid = Number(entry?.[2] ?? user);
  let gid = Number(entry?.[3] ?? 0);
  if (groupPart !== undefined && groupPart !== '') {
    if (NUMERIC.test(groupPart)) gid = Number(groupPart);
    else {
      const group = databaseLines(fs, '/etc/group').find((fields) => fields[0] === groupPart);
      if (!group) throw new EngineError(`unable to find group ${groupPart}: no matching entries in group file`);
      gid = Number(group[2]);
    }
  }
  // /etc/group read once, and only when a name needs it
  let groups: string[][] | undefined;
  const extraGroups = groupAdd.map((group) => {
    if (NUMERIC.test(group)) return Number(group);
    groups ??= databaseLines(fs, '/etc/group');
    const found = groups.find((fields) => fields[0] === group);
    // dockerd's words here begin with a capital, unlike the user's group above
    if (!found) throw new EngineError(`Unable to find group ${group}: no matching entries in group file`);
    return Number(found[2]);
  });
  return { uid, gid, name: entry?.[0], home: entry?.[5] || '/', extraGroups };
}

/** The colon-separated fields of each line; none when the file is missing. */
function databaseLines(fs: ContainerFilesystem, path: string): string[][] {
  if (fs.stat(path)?.kind !== 'file') return [];
  return fs
    .readFile(path)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.split(':'));
}
