/** The package's root: where suites/, fixtures/ and vitest.config.ts are, in a checkout or an install. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
