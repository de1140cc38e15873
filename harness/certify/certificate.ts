/**
 * A certificate: the directory `shipshape certify` writes. report.json and the files rendered from it,
 * a badge, and manifest.json: what was run (tool, check list digest, command line, seed, times), against
 * what (the target's /version and /info), and the sha256 of every file. Anyone with the same release
 * verifies it with `shipshape verify DIR`, which trusts none of the manifest's figures: it recomputes
 * the verdict from report.json and this release's fixtures/checks.json.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ApiVersion } from '../../protocol/versions.ts';
import type { Report } from '../report/types.ts';

export const MANIFEST_FILE = 'manifest.json';
/** What a certificate holds besides its manifest, each with its digest in the manifest. */
export const CERTIFIED_FILES = ['report.json', 'junit.xml', 'report.html', 'summary.md', 'badge.svg'] as const;

export interface CertificateManifest {
  certificate: 1;
  tool: Report['tool'];
  /** fixtures/checks.json of the release that made it */
  checkList: { sha256: string; checks: number };
  /** the API versions the certificate speaks for */
  claim: { versions: ApiVersion[] };
  target: Report['target'];
  /** the certify command line, a password's value left out */
  command: string[];
  startedAt: string;
  finishedAt: string;
  seed: number;
  /** as certify computed it; verify computes it again and never reads this one */
  verdict: { conformant: boolean; summary: string };
  /** file name → sha256 of its bytes */
  files: Record<string, string>;
}

export function sha256(bytes: string | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export async function fileDigests(dir: string): Promise<Record<string, string>> {
  return Object.fromEntries(await Promise.all(CERTIFIED_FILES.map(async (file) => [file, sha256(await fs.readFile(path.join(dir, file)))] as const)));
}

export async function readManifest(dir: string): Promise<CertificateManifest> {
  return JSON.parse(await fs.readFile(path.join(dir, MANIFEST_FILE), 'utf8')) as CertificateManifest;
}

export async function writeManifest(dir: string, manifest: CertificateManifest): Promise<void> {
  await fs.writeFile(path.join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}
