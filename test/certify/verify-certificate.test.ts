/**
 * A certificate that verify accepts, and each way of tampering with it that verify must refuse: a
 * result flipped (with and without the digests made to match), a check dropped, a file edited, another
 * release's check list, a narrowed or sharded run.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appliesAt, type ApiVersion } from '../../protocol/versions.ts';
import { readCheckList, CHECK_LIST_FILE } from '../../harness/check-list.ts';
import { fileDigests, readManifest, writeManifest } from '../../harness/certify/certificate.ts';
import { verifyCertificate, type Release } from '../../harness/certify/verify-certificate.ts';
import { writeCertificate } from '../../harness/certify/write-certificate.ts';
import { summarize } from '../../harness/report/summarize.ts';
import type { Report } from '../../harness/report/types.ts';
import { writeReports } from '../../harness/report/write-reports.ts';

const VERSIONS: ApiVersion[] = ['1.24', '1.25'];

async function release(): Promise<Release> {
  return { toolVersion: '0.1.0', checkListText: await fs.readFile(CHECK_LIST_FILE, 'utf8'), checks: (await readCheckList()).checks };
}

/** A run of every listed check at VERSIONS in which every check passed. */
function passingReport({ checks }: Release): Report {
  const reported = checks.map(({ id, title, area, spec, since, until, tags, level }) => ({
    id, title, area, spec, since, ...(until ? { until } : {}), tags, level,
    results: Object.fromEntries(VERSIONS.map((version) => [version, appliesAt(version, since, until) ? { status: 'passed' as const } : { status: 'skipped' as const, reason: 'not at this version' }])),
  }));
  return {
    tool: { name: 'shipshape', version: '0.1.0' },
    target: { url: 'unix:///run/engine.sock', dialect: 'engine', kind: 'live' },
    startedAt: '2026-11-28T10:00:00.000Z', finishedAt: '2026-11-28T10:05:00.000Z', durationMs: 300_000, seed: 7,
    versions: VERSIONS, checks: reported, summary: summarize(reported, VERSIONS),
  };
}

async function certificate(report: Report, given: Release): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-certificate-'));
  await writeReports(report, dir);
  await writeCertificate(dir, report, VERSIONS, ['shipshape', 'certify'], given);
  return dir;
}

/** Writes report.json anew and, with `refresh`, makes the manifest's digests match again. */
async function rewriteReport(dir: string, change: (report: Report) => void, refresh: boolean): Promise<void> {
  const report = JSON.parse(await fs.readFile(path.join(dir, 'report.json'), 'utf8')) as Report;
  change(report);
  await fs.writeFile(path.join(dir, 'report.json'), JSON.stringify(report));
  if (refresh) await writeManifest(dir, { ...(await readManifest(dir)), files: await fileDigests(dir) });
}

describe('verify', () => {
  let given: Release;
  let dir: string;
  beforeEach(async () => {
    given = await release();
    dir = await certificate(passingReport(given), given);
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it('accepts a certificate as certify wrote it, with one verdict line', async () => {
    const verification = await verifyCertificate(dir, given);
    expect(verification.lines).toHaveLength(1);
    expect(verification.lines[0]).toMatch(/^verified: unix:\/\/\/run\/engine\.sock conforms to the Engine API 1\.24–1\.25: spec results (\d+) of \1 passed/);
    expect(verification.verified).toBe(true);
  });

  it('refuses a flipped result: as an altered file, and as a failure once the digests are made to match', async () => {
    const spec = given.checks.find((check) => check.level === 'spec' && appliesAt('1.25', check.since, check.until))!;
    const flip = (report: Report) => {
      report.checks.find((check) => check.id === spec.id)!.results['1.25'] = { status: 'failed', message: 'expected 200, got 500' };
    };
    await rewriteReport(dir, flip, false);
    expect((await verifyCertificate(dir, given)).lines).toContainEqual(expect.stringMatching(/^altered: report\.json/));
    await rewriteReport(dir, () => {}, true);
    const verification = await verifyCertificate(dir, given);
    expect(verification.verified).toBe(false);
    expect(verification.lines).toEqual([`failed: ${spec.id} at 1.25: failed: expected 200, got 500`]);
  });

  it('refuses a dropped check as missing results', async () => {
    const spec = given.checks.find((check) => check.level === 'spec' && appliesAt('1.24', check.since, check.until))!;
    await rewriteReport(dir, (report) => { report.checks = report.checks.filter((check) => check.id !== spec.id); }, true);
    const verification = await verifyCertificate(dir, given);
    expect(verification.verified).toBe(false);
    expect(verification.lines).toContainEqual(`missing: ${spec.id} at 1.24: no result`);
  });

  it('refuses an edited file, and a missing one', async () => {
    await fs.appendFile(path.join(dir, 'report.html'), '<!-- edited -->');
    await fs.rm(path.join(dir, 'badge.svg'));
    const verification = await verifyCertificate(dir, given);
    expect(verification.lines).toEqual([expect.stringMatching(/^altered: report\.html \(its sha256 is/), 'missing file: badge.svg']);
  });

  it("refuses a certificate made with another release's check list", async () => {
    const other = { ...given, toolVersion: '0.2.0', checkListText: `${given.checkListText} ` };
    const verification = await verifyCertificate(dir, other);
    expect(verification.verified).toBe(false);
    expect(verification.lines).toEqual([expect.stringMatching(/^another check list: the certificate was made with check list sha256 \w{16}… \(shipshape 0\.1\.0\); shipshape 0\.2\.0 ships \w{16}…$/)]);
  });

  it('refuses a shard and a run judged with expectations, whatever its results', async () => {
    await rewriteReport(dir, (report) => {
      report.shard = '1/2';
      report.checks[0]!.results['1.25'] = { status: 'expected-failure', message: 'listed' };
    }, true);
    const verification = await verifyCertificate(dir, given);
    expect(verification.lines).toEqual(expect.arrayContaining(['not a certification run: it is shard 1/2 of a run', 'not a certification run: an expectations file judged 1 result(s)']));
  });

  it('refuses a run cut short (Ctrl-C, the target gone), even one whose every result came in', async () => {
    await rewriteReport(dir, (report) => {
      report.cutShort = { reason: 'interrupted', at: '2026-11-28T10:04:59.000Z', signal: 'SIGINT', running: [], notRun: 0, message: 'interrupted by SIGINT at 10:04:59, after system.ping.ok at 1.25' };
    }, true);
    expect((await verifyCertificate(dir, given)).lines).toContain('not a certification run: it was cut short: interrupted by SIGINT at 10:04:59, after system.ping.ok at 1.25');
  });

  it('refuses a quick run, whatever its results', async () => {
    await rewriteReport(dir, (report) => { report.profile = 'quick'; }, true);
    expect((await verifyCertificate(dir, given)).lines).toEqual(['not a certification run: it is a quick run (run --profile quick), a sample of the suite']);
  });

  it('refuses a directory without a manifest', async () => {
    await fs.rm(path.join(dir, 'manifest.json'));
    expect((await verifyCertificate(dir, given)).lines).toEqual([expect.stringMatching(/^no readable manifest\.json in .*: not a certificate/)]);
  });
});
