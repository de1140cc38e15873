/** A suite file whose worker dies in its first check (as one the kernel kills under memory pressure would). */
import { test } from 'vitest';
import { WORKER_LOST } from './checks.ts';

const [kills, after] = WORKER_LOST;
test(kills!.id, { meta: { check: kills } }, () => {
  process.kill(process.pid, 'SIGKILL');
});
test(after!.id, { meta: { check: after } }, () => {});
