/**
 * The registry credentials headers: X-Registry-Auth (one AuthConfig: credentials, or an
 * `identitytoken`) and X-Registry-Config (a map of them, for build), both base64url-encoded JSON.
 * dockerd never refuses a malformed one: it goes on as if none was given.
 */
import { atLeast, type ApiVersion } from '../../../protocol/versions.ts';
import type { RegistryCredentials } from '../model/images/image-registry.ts';

export interface AuthConfig {
  username?: string;
  password?: string;
  auth?: string;
  email?: string;
  serveraddress?: string;
  /** from 1.25: a token the registry issued, instead of a password */
  identitytoken?: string;
  /** from 1.22: a bearer token for the registry itself */
  registrytoken?: string;
}

/**
 * A header's JSON, decoded as Go's base64.URLEncoding then json.Decoder decode it; undefined when
 * the header is absent or either step fails.
 */
export function decodeBase64Json(header: string | string[] | undefined): unknown {
  const text = (Array.isArray(header) ? header[0] : header)?.replace(/[\r\n]/g, '');
  if (!text || !/^[A-Za-z0-9_-]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  try {
    return JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/** X-Registry-Auth: the AuthConfig it carries, `{}` when malformed, undefined when absent. */
export function registryAuth(header: string | string[] | undefined): AuthConfig | undefined {
  if (header === undefined || header === '') return undefined;
  const decoded = decodeBase64Json(header);
  return typeof decoded === 'object' && decoded !== null && !Array.isArray(decoded) ? authConfigOf(decoded as Record<string, unknown>) : {};
}

/**
 * The credentials an AuthConfig gives a pull, push or login: a registry token from 1.22 (dockerd
 * prefers it to anything else), the identity token from 1.25 (before, dockerd's API had no such
 * field), otherwise the user's password.
 */
export function registryCredentials(auth: AuthConfig | undefined, version: ApiVersion): RegistryCredentials {
  if (auth?.registrytoken && atLeast(version, '1.22')) return { registryToken: auth.registrytoken };
  if (auth?.identitytoken && atLeast(version, '1.25')) return { identityToken: auth.identitytoken };
  return { ...(auth?.username !== undefined && { username: auth.username }), ...(auth?.password !== undefined && { password: auth.password }) };
}

/**
 * X-Registry-Config (a ConfigFile: registry address to AuthConfig) as the credentials for a registry
 * host: the entry whose address, without scheme and path as dockerd's ConvertToHostname takes them
 * off, names the host (Docker Hub's `index.docker.io` its registry); none when absent or malformed.
 */
export function registryConfigCredentials(header: string | string[] | undefined, version: ApiVersion): (host: string) => RegistryCredentials {
  const decoded = decodeBase64Json(header);
  const entries = typeof decoded === 'object' && decoded !== null && !Array.isArray(decoded) ? Object.entries(decoded as Record<string, unknown>) : [];
  const hostOf = (address: string) => {
    const host = address.replace(/^https?:\/\//, '').replace(/\/.*$/, '');
    return host === 'index.docker.io' || host === 'docker.io' ? 'registry-1.docker.io' : host;
  };
  return (host) => {
    const entry = entries.find(([address, value]) => hostOf(address) === host && typeof value === 'object' && value !== null);
    return entry ? registryCredentials(authConfigOf(entry[1] as Record<string, unknown>), version) : {};
  };
}

function authConfigOf(fields: Record<string, unknown>): AuthConfig {
  const names = ['username', 'password', 'auth', 'email', 'serveraddress', 'identitytoken', 'registrytoken'] as const;
  return Object.fromEntries(names.filter((name) => typeof fields[name] === 'string').map((name) => [name, fields[name]]));
}
