/**
 * Errors on the wire: the status for each kind of model error, and the body format of the requested
 * version — plain text before 1.24, `{"message": ...}` from 1.24. A 304 has no body at all.
 */
import type { ServerResponse } from 'node:http';
import { atLeast } from '../../../protocol/versions.ts';
import {
  AmbiguousReferenceError,
  ConflictError,
  ForbiddenError,
  InvalidParameterError,
  MissingCommandError,
  NotAttachableError,
  NotFoundError,
  NotModifiedError,
  NotSupportedError,
  UnavailableError,
} from '../model/common/errors.ts';
import { HttpError } from '../../http-error.ts';
import type { Personality } from './personality.ts';
import { sendEmpty, sendJson, sendText } from './replies.ts';

/**
 * `version` is the requested one, which may be outside the served range (its refusal is formatted
 * for it too). Where the personality words the message its own way, the model's words go in a
 * header, for whoever debugs a client.
 */
export function sendError(response: ServerResponse, version: string, status: number, message: string, personality: Personality): void {
  const worded = personality.errorMessage(status, message);
  if (worded !== message) response.setHeader(DETAIL_HEADER, encodeURIComponent(message));
  if (atLeast(version, '1.24')) sendJson(response, status, { message: worded });
  else sendText(response, status, `${worded}\n`, { 'X-Content-Type-Options': 'nosniff' });
}

/** The header that carries the model's own words of an error the personality words otherwise (percent-encoded). */
export const DETAIL_HEADER = 'X-Reference-Error-Detail';

export function statusOf(error: unknown, version: string): number {
  if (error instanceof HttpError) return error.status;
  if (error instanceof NotModifiedError) return 304;
  if (error instanceof ForbiddenError) return 403;
  if (error instanceof NotFoundError) return 404;
  if (error instanceof NotAttachableError) return 406;
  if (error instanceof ConflictError) return 409;
  if (error instanceof InvalidParameterError || error instanceof AmbiguousReferenceError) return 400;
  if (error instanceof MissingCommandError) return atLeast(version, '1.24') ? 400 : 500;
  if (error instanceof NotSupportedError) return 501;
  if (error instanceof UnavailableError) return 503;
  return 500;
}

/** `listed`: the statuses the endpoint's row of the spec lists, when it lists any. */
export function sendFailure(response: ServerResponse, version: string, error: unknown, personality: Personality, listed?: readonly number[]): void {
  const status = personality.errorStatus(statusOf(error, version), listed);
  if (status === 304) return sendEmpty(response, 304);
  const message = error instanceof Error ? error.message : String(error);
  sendError(response, version, status, message, personality);
}
