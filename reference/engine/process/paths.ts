/** Path arithmetic for the absolute, normalised POSIX paths the container filesystem takes. */
import { posix } from 'node:path';

/** `relative` against `cwd`, normalised, without a trailing slash (but `/`). */
export function resolvePath(cwd: string, relative: string): string {
  const joined = posix.resolve('/', cwd, relative);
  return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
}

export function baseName(path: string): string {
  return posix.basename(path);
}

export function dirName(path: string): string {
  return posix.dirname(path);
}
