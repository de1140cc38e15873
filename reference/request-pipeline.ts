/**
 * The one way each reference server runs a request: whatever its handler throws ends as an answer
 * (the server's own error body where the handler catches it, a plain 500 here when something escapes
 * even that), never as an unhandled rejection; a failure that is the reference's own bug is logged
 * once. `serve` adds a process-level guard: a stray rejection or exception is logged and the servers
 * keep serving.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Where the servers log their own bugs (one line with the stack per failure). */
export type BugLog = (line: string) => void;

export const STDERR_LOG: BugLog = (line) => console.error(line);

/** Logs a failure that is no answer the server meant to give: a bug of the reference. */
export function logBug(log: BugLog, server: string, request: IncomingMessage, error: unknown): void {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  log(`shipshape ${server}: ${request.method ?? '?'} ${(request.url ?? '').slice(0, 200)} failed: ${detail}`);
}

/** The listener of a server whose `handle` answers its own failures: what escapes is logged and answered 500. */
export function guardedListener(
  server: string,
  log: BugLog,
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    handle(request, response).catch((error: unknown) => {
      logBug(log, server, request, error);
      answerEscaped(response, error);
    });
  };
}

/** A plain 500 while nothing is sent; once the answer has begun, the connection ends (the client sees it cut). */
export function answerEscaped(response: ServerResponse, error: unknown): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = `internal error in the reference: ${error instanceof Error ? error.message : String(error)}\n`;
  response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  response.end(body);
}

/** For a standalone process (`serve`): an unhandled rejection or uncaught exception is logged, not fatal. */
export function guardProcess(log: BugLog): () => void {
  const onRejection = (reason: unknown) => log(`shipshape: unhandled rejection (still serving): ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
  const onException = (error: Error) => log(`shipshape: uncaught exception (still serving): ${error.stack ?? error.message}`);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
