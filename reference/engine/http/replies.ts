/** Writing answers the way dockerd writes them: JSON with a trailing newline, plain text, or nothing. */
import type { ServerResponse } from 'node:http';

export const TEXT_PLAIN = 'text/plain; charset=utf-8';

export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = `${JSON.stringify(value)}\n`;
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  response.end(body);
}

export function sendText(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': TEXT_PLAIN, 'Content-Length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

export function sendEmpty(response: ServerResponse, status: number): void {
  response.writeHead(status);
  response.end();
}
