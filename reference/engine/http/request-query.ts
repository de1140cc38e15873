/**
 * The query of a request target, read as dockerd's ParseForm reads it (Go's url.ParseQuery): a `%`
 * that does not start a two-digit hex escape is a bad parameter (400), whatever the route.
 */
import { InvalidParameterError } from '../model/common/errors.ts';

const MALFORMED_ESCAPE = /%(?![0-9a-fA-F]{2})/;

export function parseRequestQuery(text: string): URLSearchParams {
  const malformed = MALFORMED_ESCAPE.exec(text);
  if (malformed) throw new InvalidParameterError(`invalid URL escape ${JSON.stringify(text.slice(malformed.index, malformed.index + 3))}`);
  return new URLSearchParams(text);
}
