import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'reports/', 'allure-results/', 'allure-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Suites talk to a target over the wire only: the same check must run unchanged against a live daemon.
    files: ['suites/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/reference/**', '**/reference'], message: 'suites/ may not import reference/: every check goes over the wire.' }] }],
    },
  },
  {
    // The reference's model never sees an HTTP request nor an API version.
    files: ['reference/engine/model/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/http/**', 'node:http', 'undici'], message: 'the model never sees HTTP; only reference/engine/http does.' }] }],
    },
  },
);
