import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'reports/', 'allure-results/', 'allure-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
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
    // Rules for the same files override each other: this one comes before the model's, which repeats it.
    files: ['reference/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/harness/**'], message: 'the reference never imports the harness; what both speak is in protocol/.' }] }],
    },
  },
  {
    // The reference's model never sees an HTTP request nor an API version.
    files: ['reference/engine/model/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/http/**', '**/protocol/**', '**/harness/**', 'node:http', 'undici'], message: 'the model never sees HTTP nor API versions (only reference/engine/http does), nor the harness.' }] }],
    },
  },
  {
    // The builder (the build-file language) defines what it needs and never imports the engine's model: the model's
    // builds, commit and import call it. Only the model's errors (what an HTTP status is made of) are shared.
    files: ['reference/engine/builder/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: '(^|/)model/(?!common/errors\\.ts$)', message: 'the builder never imports the model (the model imports the builder); only model/common/errors.ts.' },
        { group: ['**/http/**', '**/protocol/**', '**/harness/**', 'node:http', 'undici'], message: 'the builder never sees HTTP nor API versions, nor the harness.' },
      ] }],
    },
  },
  {
    // protocol/ is what the runner and the reference both speak: it knows neither.
    files: ['protocol/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/harness/**', '**/reference/**'], message: 'protocol/ imports neither harness/ nor reference/.' }] }],
    },
  },
  {
    // The CLI starts the reference through its one entry point.
    files: ['harness/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/reference/**', '!**/reference/serve.ts'], message: 'harness/ reaches the reference only through reference/serve.ts.' }] }],
    },
  },
);
