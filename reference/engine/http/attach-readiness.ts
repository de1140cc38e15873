/**
 * Attached clients whose stream has not begun yet: a hijacked head goes out alone and the stream waits
 * HEAD_ALONE_MS after it (raw-stream.ts). A start waits for them. On dockerd the start comes well after
 * the attach's head (runc takes tens of milliseconds), so a quick process's output is with its clients
 * before its exit answers a wait; dockerode's TTY test writes, waits, and then reads what came.
 */
import type { Container } from '../model/containers/container.ts';

const beginning = new WeakMap<Container, Set<Promise<void>>>();

/** A client attached to `container` whose stream begins when `ready` resolves. */
export function attachBeginning(container: Container, ready: Promise<void>): void {
  let pending = beginning.get(container);
  if (!pending) beginning.set(container, (pending = new Set()));
  const entry = ready.finally(() => pending.delete(entry));
  pending.add(entry);
}

/** Resolves once every stream attached to `container` so far has begun. */
export async function attachedStreamsBegun(container: Container): Promise<void> {
  await Promise.all(beginning.get(container) ?? []);
}
