/** A refusal that belongs to the HTTP layer itself (not-yet-implemented routes, bad requests), with its status. */
export class HttpError extends Error {
  override name = 'HttpError';

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
