/**
 * The `/vX.Y` path prefix. An unprefixed path is the current version. Whether a prefixed version is
 * served is decided after routing, as dockerd does: an unknown route is 404 whatever its prefix.
 */
import { API_VERSIONS, CURRENT_VERSION, OLDEST_VERSION, compareVersions, parseVersion, type ApiVersion } from '../../../harness/versions.ts';

export interface VersionedPath {
  /** the requested version as `major.minor` (CURRENT_VERSION when unprefixed); may be unsupported */
  version: string;
  /** the path after the prefix */
  path: string;
}

const PREFIX = /^\/v(\d+\.\d+)(\/.*)$/;

/** A prefix that is not `v<major>.<minor>` is no prefix: the whole path then matches no route. */
export function splitVersionPrefix(path: string): VersionedPath {
  const match = PREFIX.exec(path);
  if (!match?.[1] || !match[2]) return { version: CURRENT_VERSION, path };
  const [major, minor] = parseVersion(match[1]);
  return { version: `${major}.${minor}`, path: match[2] };
}

/** The version itself when this server serves it. */
export function supportedVersion(version: string): ApiVersion | undefined {
  return API_VERSIONS.find((known) => known === version);
}

/** dockerd's words for a version it does not serve; undefined for one it serves. */
export function versionRefusal(version: string): string | undefined {
  if (compareVersions(version, CURRENT_VERSION) > 0) {
    return `client version ${version} is too new. Maximum supported API version is ${CURRENT_VERSION}`;
  }
  if (compareVersions(version, OLDEST_VERSION) < 0) {
    return `client version ${version} is too old. Minimum supported API version is ${OLDEST_VERSION}, please upgrade your client to a newer version`;
  }
  return undefined;
}
