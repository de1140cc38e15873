/**
 * The certificate's own files beside a run's reports: the badge, then the manifest with the digest of
 * every file. What the verdict says is computed here from report.json and the check list given.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ApiVersion } from '../../protocol/versions.ts';
import type { Report } from '../report/types.ts';
import { renderBadge } from './badge-svg.ts';
import { fileDigests, sha256, writeManifest, type CertificateManifest } from './certificate.ts';
import { conforms, tallyLevel, tallyText, versionSpan, type LevelTally } from './certificate-verdict.ts';
import type { Release } from './verify-certificate.ts';

export interface WrittenCertificate {
  conformant: boolean;
  spec: LevelTally;
  docker: LevelTally;
  summary: string;
}

export async function writeCertificate(dir: string, report: Report, versions: ApiVersion[], command: string[], release: Release): Promise<WrittenCertificate> {
  const spec = tallyLevel(report, release.checks, versions, 'spec');
  const docker = tallyLevel(report, release.checks, versions, 'docker');
  const conformant = conforms(spec);
  const specChecks = release.checks.filter((check) => check.level === 'spec');
  const missedIds = new Set([...spec.failed, ...spec.missing].map((missed) => missed.id));
  const badge = conformant ? 'conformant' : `${specChecks.filter((check) => !missedIds.has(check.id)).length}/${specChecks.length} spec checks`;
  await fs.writeFile(path.join(dir, 'badge.svg'), renderBadge(`Engine API ${versionSpan(versions)}`, badge, conformant));

  const summary = `${conformant ? 'conforms' : 'does not conform'} to the Engine API ${versionSpan(versions)}: spec results ${tallyText(spec)}`;
  const manifest: CertificateManifest = {
    certificate: 1,
    tool: { name: 'shipshape', version: release.toolVersion },
    checkList: { sha256: sha256(release.checkListText), checks: release.checks.length },
    claim: { versions },
    target: report.target,
    command,
    startedAt: report.startedAt,
    finishedAt: report.finishedAt,
    seed: report.seed,
    verdict: { conformant, summary },
    files: await fileDigests(dir),
  };
  await writeManifest(dir, manifest);
  return { conformant, spec, docker, summary };
}
