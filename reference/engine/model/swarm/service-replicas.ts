/**
 * How many replicas a service may ask of the reference. Its one node makes a task and a container per
 * replica at once, on the event loop every server shares: 20 000 of them stalled every request for
 * about 80 s. dockerd sets no such limit (swarmkit spreads the tasks over its nodes); README, Limits.
 */
import { InvalidParameterError } from '../common/errors.ts';

export const MAX_REPLICAS = 1000;

/** `replicas` when the reference serves that many, else a 400 that names the limit. */
export function checkReplicas(replicas: number): number {
  if (replicas > MAX_REPLICAS) {
    throw new InvalidParameterError(`Mode.Replicated.Replicas ${replicas} is more than the reference runs: at most ${MAX_REPLICAS} replicas per service (its one node makes a container per task)`);
  }
  return replicas;
}
