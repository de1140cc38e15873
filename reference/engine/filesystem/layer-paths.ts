/**
 * Path arithmetic on the physical paths layers are keyed by: absolute, normalised, no trailing slash
 * ('/', '/etc', '/etc/passwd'). Names compare bytewise, as Go sorts them (directory walks, tar order).
 */
import { posix } from 'node:path';

/** The components of a path ('/a/b/' → ['a', 'b']), `.` and `..` kept for the resolver to interpret. */
export function pathParts(path: string): string[] {
  return path.split('/').filter((part) => part !== '');
}

export function joinParts(parts: readonly string[]): string {
  return `/${parts.join('/')}`;
}

export function childPath(directory: string, name: string): string {
  return directory === '/' ? `/${name}` : `${directory}/${name}`;
}

export function parentPath(path: string): string {
  return posix.dirname(path);
}

export function baseName(path: string): string {
  return path === '/' ? '/' : posix.basename(path);
}

/** A tar member name ('./etc/', 'etc/passwd', '/bin') as a layer path; `..` cannot climb above '/'. */
export function layerPathOfMember(name: string): string {
  const normalised = posix.normalize(`/${name}`);
  return normalised.length > 1 && normalised.endsWith('/') ? normalised.slice(0, -1) : normalised;
}

/** `path` strictly inside `ancestor`. */
export function isInside(path: string, ancestor: string): boolean {
  return ancestor === '/' ? path !== '/' : path.startsWith(`${ancestor}/`);
}

export function compareBytewise(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
