/** The tool's own version, from package.json, for reports. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '../run/run-suite.ts';

export async function readToolVersion(): Promise<string> {
  const pkg = JSON.parse(await fs.readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}
