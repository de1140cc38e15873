/** The tool's own version, from its package.json (the checkout's, or the installed package's). */
import fs from 'node:fs/promises';

export async function readToolVersion(): Promise<string> {
  const pkg = JSON.parse(await fs.readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
