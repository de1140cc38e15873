/**
 * The test helpers that feed a command's stdin survive a command that exits before reading it (issue
 * 17: `npm test` died of an unhandled `write EPIPE` when `tar` exited first), and still show a command
 * that failed as failed.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runCli, startCli } from './docker-cli-process.ts';

/** far more than a pipe holds (64 KiB on Linux), so the write is still pending when the command exits */
const BIG_INPUT = 'x'.repeat(8 * 1024 * 1024);

describe('runCli and startCli with a command that does not read its stdin', () => {
  const uncaught: unknown[] = [];
  const record = (error: unknown) => uncaught.push(error);
  beforeEach(() => {
    uncaught.length = 0;
    process.on('uncaughtException', record);
  });
  afterEach(async () => {
    // An unhandled stream error surfaces on a later turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 100));
    process.off('uncaughtException', record);
    expect(uncaught).toEqual([]);
  });

  test('a command that exits at once: its exit code, and the input it left unread, with no uncaught error', async () => {
    const result = await runCli('true', [], process.env, BIG_INPUT);
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '', unreadInput: expect.stringMatching(/^`true` stopped reading its stdin: .*EPIPE/) });
  });

  test('a command that fails before reading still fails, with its own code and message', async () => {
    const result = await runCli('sh', ['-c', 'echo refused >&2; exit 3'], process.env, BIG_INPUT);
    expect(result).toMatchObject({ code: 3, stderr: 'refused\n' });
  });

  test('a command that reads it all gets it all, and nothing is unread', async () => {
    const result = await runCli('wc', ['-c'], process.env, BIG_INPUT);
    expect(result.stdout.trim()).toBe(String(BIG_INPUT.length));
    expect(result.unreadInput).toBeUndefined();
  });

  test('writing to a started command after it exited is no uncaught error either', async () => {
    const run = startCli('true', [], process.env);
    expect((await run.done).code).toBe(0);
    run.write(BIG_INPUT);
    run.end();
  });
});
