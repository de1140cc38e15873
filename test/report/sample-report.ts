/**
 * Reports for the tests of harness/report: a realistic run (several areas, all six statuses, all eight
 * versions, both check levels, messages full of markup and control characters) and a small builder for
 * hand-made ones.
 */
import { API_VERSIONS, before } from '../../protocol/versions.ts';
import { summarize } from '../../harness/report/summarize.ts';
import type { CheckReport, Report, VersionResult } from '../../harness/report/types.ts';
import type { ExchangeRecord } from '../../harness/client/api-response.ts';

export function makeCheck(id: string, results: Record<string, VersionResult>, meta: Partial<CheckReport> = {}): CheckReport {
  return { id, title: `the rule of ${id}`, area: id.split('.')[0] ?? id, spec: '1 §3', since: '1.18', tags: ['state'], ...meta, results };
}

export function makeReport(checks: CheckReport[], versions: string[] = [...API_VERSIONS]): Report {
  return {
    tool: { name: 'shipshape', version: '0.1.0' },
    target: { url: 'unix:///var/run/docker.sock', dialect: 'docker', kind: 'live', server: { Version: '20.10.24', ApiVersion: '1.41', MinAPIVersion: '1.12', Os: 'linux', Arch: 'amd64' } },
    startedAt: '2025-01-02T03:04:05.000Z',
    finishedAt: '2025-01-02T03:05:35.500Z',
    durationMs: 90_500,
    seed: 424242,
    versions,
    checks,
    summary: summarize(checks, versions),
  };
}

/** The same status at every version. */
export function everywhere(result: VersionResult, versions: readonly string[] = API_VERSIONS): Record<string, VersionResult> {
  return Object.fromEntries(versions.map((version) => [version, result]));
}

const NASTY = 'expected 200, got 500 <b>&amp;</b> "quoted" \'single\' | pipe `tick` </script><!-- \u001b[31mred\u001b[0m \u0000nul \u0007bell \uFFFF';

/** What a failing create recorded: a probe of the image, then the create the verdict rests on. */
function createExchanges(version: string): ExchangeRecord[] {
  return [
    { method: 'GET', path: `/v${version}/images/busybox/json`, status: 200, contentType: 'application/json', bodyPreview: '{"Id":"sha256:0a1b"}' },
    {
      method: 'POST', path: `/v${version}/containers/create?name=shipshape-1`, status: 400, contentType: 'application/json', bodyPreview: '{"message":"No command specified"}',
      sent: { headers: { 'content-type': 'application/json' }, body: '{"Image":"busybox","Cmd":null,"Labels":{"it\'s":"<b>"}}', bodyBytes: 52 },
    },
  ];
}

export function sampleReport(): Report {
  const byVersion = (pick: (version: string) => VersionResult) => Object.fromEntries(API_VERSIONS.map((version) => [version, pick(version)]));
  const checks: CheckReport[] = [
    makeCheck('system.ping.body', everywhere({ status: 'passed', durationMs: 4 }), { tags: ['schema'] }),
    makeCheck('system.version.schema', everywhere({ status: 'expected-failure', durationMs: 9, reason: 'no top-level Experimental when false', message: 'Experimental: expected boolean, got undefined\nrequest: GET /v1.24/version → 200' }), { tags: ['schema', 'version'], level: 'docker', seen: 'dockerd 20.10.24' }),
    makeCheck('system.info.bool-flags', byVersion((version) => (before(version, '1.19') ? { status: 'failed', durationMs: 12, message: `${NASTY}\nrequest: GET /v${version}/info → 200` } : { status: 'passed', durationMs: 11 })), { tags: ['schema', 'version'] }),
    makeCheck('system.errors.json-body', byVersion((version) => (before(version, '1.24') ? { status: 'skipped', reason: 'applies from 1.24 on' } : { status: 'unexpected-pass', durationMs: 5, reason: 'plain-text errors', message: 'listed as expected to fail (plain-text errors) but passed: remove it from fixtures/expectations/docker-20.10.json' })), { since: '1.24', tags: ['error', 'version'] }),
    makeCheck('containers.create.no-cmd', byVersion((version) => (before(version, '1.24') ? { status: 'failed', durationMs: 30, message: 'expected status 500, got 400\nrequest: POST /v1.23/containers/create → 400\n'.repeat(30), exchanges: createExchanges(version) } : { status: 'passed', durationMs: 28 })), { tags: ['error'], quote: ['A create without Cmd and an image without one is refused with 500.'] }),
    makeCheck('containers.start.already-started', everywhere({ status: 'passed', durationMs: 120 }), { spec: '1 §3.2', level: 'spec' }),
    makeCheck('containers.wait.exit-code', everywhere({ status: 'error', durationMs: 30_000, message: 'timed out after 30000 ms waiting for the container to stop; last state: running' })),
    makeCheck('exec.start.detach', byVersion((version) => (version === '1.21' ? { status: 'error', message: 'socket hang up' } : { status: 'passed', durationMs: 40 })), { tags: ['stream'], level: 'docker', seen: 'dockerd 20.10.24' }),
    makeCheck('streams.attach.multiplexed', everywhere({ status: 'passed', durationMs: 60 }), { tags: ['stream', 'property'], spec: '1 §4.4' }),
    makeCheck('swarm.service.create', everywhere({ status: 'skipped', reason: 'the target lacks swarm' }), { since: '1.24', requires: ['swarm'], tags: ['state'] }),
    makeCheck('images.list.legacy-filter', byVersion((version) => (before(version, '1.21') ? { status: 'passed', durationMs: 7 } : { status: 'skipped', reason: 'applies to 1.18–1.20 only' })), { until: '1.20', tags: ['version'] }),
  ];
  return makeReport(checks);
}
