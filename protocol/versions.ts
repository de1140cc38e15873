/**
 * API versions as numbers, never as strings: "1.9" < "1.18" must hold.
 * Shared by the harness (gating checks) and the reference's HTTP layer.
 */
export const API_VERSIONS = ['1.18', '1.19', '1.20', '1.21', '1.22', '1.23', '1.24', '1.25'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

export const OLDEST_VERSION: ApiVersion = '1.18';
export const CURRENT_VERSION: ApiVersion = '1.25';

const VERSION_PATTERN = /^(\d+)\.(\d+)$/;

export function parseVersion(text: string): [number, number] {
  const match = VERSION_PATTERN.exec(text);
  if (!match) throw new Error(`not an API version (major.minor): ${JSON.stringify(text)}`);
  return [Number(match[1]), Number(match[2])];
}

export function isVersion(text: string): boolean {
  return VERSION_PATTERN.test(text);
}

export function compareVersions(a: string, b: string): number {
  const [aMajor, aMinor] = parseVersion(a);
  const [bMajor, bMinor] = parseVersion(b);
  return aMajor !== bMajor ? aMajor - bMajor : aMinor - bMinor;
}

/** `version` is `floor` or newer. */
export function atLeast(version: string, floor: string): boolean {
  return compareVersions(version, floor) >= 0;
}

/** `version` is older than `ceiling`. */
export function before(version: string, ceiling: string): boolean {
  return compareVersions(version, ceiling) < 0;
}

/** Whether a check with `since`/`until` applies at `version` (`until` is the last version it applies to). */
export function appliesAt(version: string, since: string, until?: string): boolean {
  return atLeast(version, since) && (until === undefined || compareVersions(version, until) <= 0);
}

/** Parses `1.18-1.25`, `1.24,1.25` or `1.24` into the known versions it names, oldest first. */
export function parseVersionList(text: string): ApiVersion[] {
  const picked = new Set<ApiVersion>();
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [from = '', to = from] = part.split('-').map((p) => p.trim());
    if (!isVersion(from) || !isVersion(to)) throw new Error(`--api: ${JSON.stringify(part)} is not a version or range like 1.18-1.25`);
    const inRange = API_VERSIONS.filter((v) => atLeast(v, from) && compareVersions(v, to) <= 0);
    if (inRange.length === 0) throw new Error(`--api: ${part} names no version in ${OLDEST_VERSION}-${CURRENT_VERSION}`);
    inRange.forEach((v) => picked.add(v));
  }
  if (picked.size === 0) throw new Error('--api: no version given');
  return API_VERSIONS.filter((v) => picked.has(v));
}
