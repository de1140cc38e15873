/** uname and uptime: the host kernel's facts in busybox's layout, the node name being the container's hostname. */
import os from 'node:os';
import { describe, expect, test } from 'vitest';
import { run } from './run-process.ts';

describe('uname', () => {
  test('-a: every field, the hostname as node name, then GNU/Linux', async () => {
    const result = await run(['uname', '-a'], { hostname: 'box' });
    expect(result).toMatchObject({ exitCode: 0, stdout: `Linux box ${os.release()} ${os.version()} ${os.machine()} GNU/Linux\n` });
  });

  test('no option is -s; fields come in the kernel\'s order whatever the options\' order', async () => {
    expect((await run(['uname'])).stdout).toBe('Linux\n');
    expect((await run(['uname', '-m', '-r'])).stdout).toBe(`${os.release()} ${os.machine()}\n`);
  });
});

describe('uptime', () => {
  test('the time of day, the time up, no users and three load averages', async () => {
    const result = await run(['uptime']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^ \d\d:\d\d:\d\d up (\d+ days?, )?( ?\d+:\d\d|\d+ min), {2}0 users, {2}load average: \d+\.\d\d, \d+\.\d\d, \d+\.\d\d\n$/);
  });
});
