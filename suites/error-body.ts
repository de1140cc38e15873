/**
 * The error body of the requested version (spec/1 §7.1): plain text before 1.24, an object with a
 * string `message` as JSON from 1.24.
 */
import type { CheckContext } from '../harness/check.ts';
import type { ApiResponse } from '../harness/client/api-response.ts';
import { before } from '../protocol/versions.ts';

export function expectErrorBodyOfVersion({ expect, version }: Pick<CheckContext, 'expect' | 'version'>, res: ApiResponse): void {
  if (before(version, '1.24')) {
    expect(res.contentType, 'Content-Type').toMatch(/^text\/plain\b/);
    expect(res.text().trim(), 'body').toMatch(/^[^{]/);
  } else {
    expect(res.contentType, 'Content-Type').toMatch(/^application\/json\b/);
    const body = res.json<Record<string, unknown>>();
    expect(typeof body.message, 'type of body.message').toBe('string');
  }
}
