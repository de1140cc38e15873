/**
 * One vitest project per API version (`v1.18` … `v1.25`) over the same suites, plus `unit` for the
 * tests of harness/ and reference/ themselves. Each version project is told its version through
 * `provide`; checks read it with `inject('apiVersion')`.
 */
import { defineConfig } from 'vitest/config';
import { API_VERSIONS } from './protocol/versions.ts';

export const SUITE_FILES = 'suites/**/*.check.ts';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
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
