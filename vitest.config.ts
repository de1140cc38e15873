/**
 * One vitest project per API version (`v1.18` … `v1.25`) over the same suites, plus `unit` for the
 * tests of harness/ and reference/ themselves, in process, and `process` for the tests that run whole
 * processes (issue 25: `unit` is the developer loop, in `npm test`; `process` is `npm run test:process`,
 * its own step in .ci/run). Each version project is told its version through `provide`; checks read it
 * with `inject('apiVersion')`.
 */
import { configDefaults, defineConfig } from 'vitest/config';
import { API_VERSIONS } from './protocol/versions.ts';

export const SUITE_FILES = 'suites/**/*.check.ts';

/** Every test of harness/ and reference/: each is in `unit` or in `process`, never both (test/project-split.test.ts). */
export const TEST_FILES = 'test/**/*.test.ts';

/**
 * The `process` project, by folder: the CLI spawned (bin/shipshape.js run, serve, list, merge; Ctrl-C;
 * `npm pack` and an offline install), the docker CLI against a `serve` child, the client scenarios
 * (docker CLI, Python SDK, dockerode), 20 000 fuzzed requests, the whole docker-level suite on strict,
 * a run under load on purpose, and the live jobs gated by env (SHIPSHAPE_DOCKERD_HOST, SHIPSHAPE_CHAIN).
 * The few in-process tests in those folders are named in `!(…)` and stay in `unit`; so do the lints
 * that read `shipshape list --json` once each (check-quotes, check-levels, readings-ratchet): they
 * gate in `npm test`.
 */
export const PROCESS_TEST_FILES = [
  'test/cli/!(progress-line|report-schema-copy).test.ts',
  'test/clients/!(suite-differences).test.ts',
  'test/fuzz/**/*.test.ts',
  'test/chain/**/*.test.ts',
  'test/review/docker-on-strict.test.ts',
  'test/check-list/check-list.test.ts',
];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [TEST_FILES],
          exclude: [...configDefaults.exclude, ...PROCESS_TEST_FILES],
          // The files share one module graph per worker instead of importing harness/ and reference/
          // afresh each: less than half the CPU and wall time of the project (issue 25). They leave no
          // state behind (spies restored, timers real again, servers closed); they passed with their
          // files shuffled (`--sequence.shuffle.files`), as they must go on doing.
          isolate: false,
        },
      },
      {
        test: {
          name: 'process',
          include: PROCESS_TEST_FILES,
        },
      },
      ...API_VERSIONS.map((version) => ({
        test: {
          name: `v${version}`,
          include: [SUITE_FILES],
          provide: { apiVersion: version },
          globalSetup: ['harness/run/global-setup.ts'],
          // Allure's runtime in the workers (its reporter's own registration comes after the config is sent).
          setupFiles: ['allure-vitest/setup'],
          // Checks are independent and talk to the target over the wire: no module state to isolate,
          // and running them side by side is what keeps a live run short.
          isolate: false,
          sequence: { concurrent: true },
          maxConcurrency: 8,
        },
      })),
    ],
  },
});
