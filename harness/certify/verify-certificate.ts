/**
 * `verify`'s judgement of a certificate directory, trusting nothing in it: every file's digest against
 * the manifest, the check list against this release's, and the verdict recomputed from report.json:
 * every spec-level check × claimed version has a result and none failed or erred, and the run was
 * neither narrowed, judged with expectations, nor sharded.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CheckDescriptor } from '../check.ts';
import { CHECK_LIST_FILE, type CheckList } from '../check-list.ts';
import { readToolVersion } from '../cli/tool-version.ts';
import type { Report } from '../report/types.ts';
import { CERTIFIED_FILES, MANIFEST_FILE, readManifest, sha256, type CertificateManifest } from './certificate.ts';
import { narrowedRun, tallyLevel, tallyText, versionSpan, type MissedResult } from './certificate-verdict.ts';

/** What verify holds a certificate against: the release it runs as. */
export interface Release {
  toolVersion: string;
  checkListText: string;
  checks: CheckDescriptor[];
}

/** The release this tool is: its version and its check list, the file read once. */
export async function thisRelease(): Promise<Release> {
  const [toolVersion, checkListText] = await Promise.all([readToolVersion(), fs.readFile(CHECK_LIST_FILE, 'utf8')]);
  return { toolVersion, checkListText, checks: (JSON.parse(checkListText) as CheckList).checks };
}

export interface Verification {
  verified: boolean;
  /** the verdict line when verified; else each thing missing, failed or altered (long lists cut, saying how many more) */
  lines: string[];
  /** how many problems there are, each failed or missing result one */
  problems: number;
}

const LISTED = 10;

function listed(kind: string, missed: MissedResult[]): string[] {
  const lines = missed.slice(0, LISTED).map((result) => `${kind}: ${result.id} at ${result.version}: ${result.message.split('\n')[0]}`);
  if (missed.length > LISTED) lines.push(`${kind}: … and ${missed.length - LISTED} more (report.json)`);
  return lines;
}

export async function verifyCertificate(dir: string, release: Release): Promise<Verification> {
  let manifest: CertificateManifest;
  try {
    manifest = await readManifest(dir);
  } catch (error) {
    return { verified: false, lines: [`no readable ${MANIFEST_FILE} in ${dir}: not a certificate (${(error as Error).message})`], problems: 1 };
  }
  const problems: string[] = [];
  for (const file of CERTIFIED_FILES) {
    const bytes = await fs.readFile(path.join(dir, file)).catch(() => undefined);
    if (bytes === undefined) problems.push(`missing file: ${file}`);
    else if (manifest.files?.[file] === undefined) problems.push(`the manifest gives no digest for ${file}`);
    else if (sha256(bytes) !== manifest.files[file]) problems.push(`altered: ${file} (its sha256 is ${sha256(bytes).slice(0, 16)}…, the manifest says ${manifest.files[file].slice(0, 16)}…)`);
  }
  const releaseList = sha256(release.checkListText);
  if (manifest.checkList?.sha256 !== releaseList) {
    problems.push(`another check list: the certificate was made with check list sha256 ${String(manifest.checkList?.sha256).slice(0, 16)}… (shipshape ${manifest.tool?.version}); shipshape ${release.toolVersion} ships ${releaseList.slice(0, 16)}…`);
  }
  const report = await fs.readFile(path.join(dir, 'report.json'), 'utf8').then((text) => JSON.parse(text) as Report, () => undefined);
  if (report === undefined) return { verified: false, lines: [...problems, 'report.json does not read as JSON: no result can be checked'], problems: problems.length + 1 };

  const claimed = manifest.claim?.versions ?? [];
  if (claimed.length === 0) problems.push('the manifest claims no API version');
  const unrun = claimed.filter((version) => !report.versions.includes(version));
  if (unrun.length > 0) problems.push(`claimed but not run: ${unrun.join(', ')}`);
  for (const why of narrowedRun(report)) problems.push(`not a certification run: ${why}`);
  const spec = tallyLevel(report, release.checks, claimed, 'spec');
  const count = problems.length + spec.failed.length + spec.missing.length;
  if (count > 0) return { verified: false, lines: [...problems, ...listed('failed', spec.failed), ...listed('missing', spec.missing)], problems: count };

  const docker = tallyLevel(report, release.checks, claimed, 'docker');
  return {
    verified: true,
    lines: [
      `verified: ${report.target.url} conforms to the Engine API ${versionSpan(claimed)}: spec results ${tallyText(spec)}; Docker compatibility (not part of the claim): docker results ${tallyText(docker)}; check list ${releaseList.slice(0, 16)}… of shipshape ${release.toolVersion}`,
    ],
    problems: 0,
  };
}
