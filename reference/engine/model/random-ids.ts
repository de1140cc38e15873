import { randomBytes } from 'node:crypto';

/** The default id source: 32 random bytes as 64 hex digits, like the engine's ids. */
export function randomId(): string {
  return randomBytes(32).toString('hex');
}
