import { randomBytes } from 'node:crypto';

/** The default id source: 32 random bytes as 64 hex digits, like the engine's ids. */
export function randomId(): string {
  return randomBytes(32).toString('hex');
}

const SWARM_ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** The swarm's id form (nodes, services, tasks): 25 base-36 digits, as swarmkit makes them. */
export function randomSwarmId(): string {
  return [...randomBytes(25)].map((byte) => SWARM_ID_ALPHABET[byte % SWARM_ID_ALPHABET.length]).join('');
}
