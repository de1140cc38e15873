/**
 * JSON request bodies: read without blocking, empty means "none given", anything that is not JSON is
 * a 400 worded like dockerd's decoder. Unknown properties are the reader's to ignore.
 */
import type { IncomingMessage } from 'node:http';
import { readBody } from '../../request-limits.ts';
import { InvalidParameterError } from '../model/common/errors.ts';

export async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  return parseJsonBody(request, await readBodyText(request));
}

/** The body as text, within the JSON body limit (request-limits.ts). */
export async function readBodyText(request: IncomingMessage): Promise<string> {
  return (await readBody(request, 'json')).toString('utf8');
}

/** A body already read, as JSON: undefined when empty. */
export function parseJsonBody(request: IncomingMessage, text: string): unknown {
  if (text.trim() === '') return undefined;
  const contentType = request.headers['content-type'];
  if (contentType !== undefined && !/^application\/json\b/i.test(contentType)) {
    throw new InvalidParameterError(`Content-Type specified (${contentType}) must be 'application/json'`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidParameterError(decoderMessage(text, error as Error));
  }
}

/** Go's wording where V8 says where it stopped; V8's own otherwise. */
function decoderMessage(text: string, error: Error): string {
  if (/end of JSON input/i.test(error.message)) return 'unexpected end of JSON input';
  const position = /position (\d+)/.exec(error.message)?.[1];
  const offending = position === undefined ? /Unexpected token '?(.)/.exec(error.message)?.[1] : text[Number(position)];
  return offending === undefined ? `invalid JSON: ${error.message}` : `invalid character '${offending}' in JSON request body`;
}
