/**
 * Wait for a state, never sleep for it: poll with a deadline, and when the deadline passes fail with
 * the last value seen, so the message says where the target got stuck.
 */
export class WaitTimeout extends Error {
  override name = 'AssertionError';
}

export interface UntilOptions {
  /** how long to wait in all; default 10 s (checks have a 30 s deadline) */
  timeoutMs?: number;
  /** pause between polls; default 50 ms */
  intervalMs?: number;
  /** what is being waited for, for the message */
  what?: string;
}

/** Polls `probe` until `accept(value)` holds; returns that value. */
export async function until<T>(probe: () => Promise<T>, accept: (value: T) => boolean, options: UntilOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  let last: T;
  for (;;) {
    last = await probe();
    if (accept(last)) return last;
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
  throw new WaitTimeout(`timed out after ${options.timeoutMs ?? 10_000} ms waiting for ${options.what ?? 'a state'}; last seen: ${JSON.stringify(last)?.slice(0, 300)}`);
}

/** How long {@link retriedOnServerError} asks again. */
const SERVER_ERROR_PATIENCE_MS = 10_000;

/**
 * `send` again while it answers 500, half a second apart, for up to {@link SERVER_ERROR_PATIENCE_MS};
 * the last answer is returned either way. Only for requests whose 500 makes nothing (an inspect, a
 * listing, a commit): Podman 4.3 answers 500 "image not known" / "layer not known" while other clients
 * remove images (its storage races), and the same request right a moment later.
 */
export async function retriedOnServerError<T extends { status: number }>(send: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + SERVER_ERROR_PATIENCE_MS;
  let res = await send();
  while (res.status === 500 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    res = await send();
  }
  return res;
}
