/** An error the user caused (a bad flag, an unreadable file): the CLI prints its message alone and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
