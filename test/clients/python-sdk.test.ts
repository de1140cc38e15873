/**
 * The Python Docker SDK (Debian's python3-docker) at API 1.25, driven through python-sdk/scenarios.py:
 * one scenario per capability of issue 18, on real dockerd first when SHIPSHAPE_DOCKERD_HOST names one
 * (the expectation), then on the reference. Skipped, saying why, where python3 cannot import docker.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/docker-cli-process.ts';
import { listedScenarios } from './known-gaps.ts';
import { runScenario, TARGET_KINDS, targetForSuite } from './targets.ts';

const CLIENT = 'python-sdk';
const SCRIPT = fileURLToPath(new URL('./python-sdk/scenarios.py', import.meta.url));
/** the swarm scenarios on dockerd wait for real tasks; the reference answers in milliseconds */
const SCENARIO_TIMEOUT_MS = 150_000;
/** the scenarios that need a node outside any swarm */
const OUTSIDE_SWARM = new Set(['swarm_lifecycle']);

const listing = spawnSync('python3', [SCRIPT, '--list'], { encoding: 'utf8' });
const sdkInstalled = listing.status === 0;
if (!sdkInstalled) console.warn(`Python Docker SDK scenarios skipped: ${listing.error?.message ?? listing.stderr.trim().split('\n').at(-1)} (apt-get install python3-docker)`);
const SCENARIOS = sdkInstalled ? listing.stdout.trim().split('\n') : [];

describe.skipIf(!sdkInstalled)('Python Docker SDK scenarios', () => {
  it('every known gap listed for the SDK names one of its scenarios', () => {
    expect(listedScenarios(CLIENT).filter((scenario) => !SCENARIOS.includes(scenario))).toEqual([]);
  });

  describe.each(TARGET_KINDS)('against %s', { timeout: SCENARIO_TIMEOUT_MS }, (kind) => {
    const target = targetForSuite(kind, 'shipshape-python-sdk-');
    it.each(SCENARIOS)('%s', async (scenario) => {
      const { url, outsideSwarmUrl, image, pluginRemote, pluginRuns, workdir } = target();
      const node = OUTSIDE_SWARM.has(scenario) ? outsideSwarmUrl : url;
      if (!node) return console.warn(`${scenario} skipped on ${kind}: no node outside a swarm`);
      const env = { ...process.env, SS_IMAGE: image, SS_UNIQUE: `sspy${process.pid}`, SS_WORKDIR: workdir, SS_PLUGIN_REMOTE: pluginRemote, SS_PLUGIN_RUNS: pluginRuns ? '1' : '0' };
      await runScenario(CLIENT, scenario, target(), async () => {
        const result = await runCli('python3', [SCRIPT, node, scenario], env, '', SCENARIO_TIMEOUT_MS - 5_000);
        expect(result.code, `${scenario} on ${kind}:\n${result.stderr}`).toBe(0);
      });
    });
  });
});
