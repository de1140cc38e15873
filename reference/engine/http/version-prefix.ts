/**
 * The `/vX.Y` path prefix. An unprefixed path is the current version. Whether a prefixed version is
 * served is decided after routing, as dockerd does: an unknown route is 404 whatever its prefix.
 */
import { API_VERSIONS, CURRENT_VERSION, OLDEST_VERSION, compareVersions, type ApiVersion } from '../../../protocol/versions.ts';

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
  // Leading zeros go, as numbers read them; the digits stay text, so a huge number is no `1e+21`.
  const [major, minor] = match[1].split('.').map((part) => part.replace(/^0+(?=\d)/, ''));
  return { version: `${major}.${minor}`, path: match[2] };
}

export type VersionCheck = { served: ApiVersion } | { refusal: string };

/** The version when this server serves it, else dockerd's words for refusing it. */
export function checkVersion(version: string): VersionCheck {
  const served = API_VERSIONS.find((known) => known === version);
  if (served) return { served };
  if (compareVersions(version, CURRENT_VERSION) > 0) {
    return { refusal: `client version ${version} is too new. Maximum supported API version is ${CURRENT_VERSION}` };
  }
  return {
    refusal: `client version ${version} is too old. Minimum supported API version is ${OLDEST_VERSION}, please upgrade your client to a newer version`,
  };
}
