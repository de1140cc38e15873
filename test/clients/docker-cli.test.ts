/**
 * The docker CLI (Debian's 20.10 at /usr/bin/docker, and any other on the machine: PATH's docker,
 * /usr/local/bin/docker, SHIPSHAPE_DOCKER_CLI) at API 1.24 and 1.25 (DOCKER_API_VERSION), through the
 * capabilities of issue 18 a user reaches from the command line: exec -e, run --network --ip, plugin
 * install, swarm init/leave, secrets, service scale, prune and df, healthchecks, a rebuild from the
 * cache. Each scenario runs on real dockerd first when SHIPSHAPE_DOCKERD_HOST names one (the
 * expectation), then on the reference; where the CLI itself refuses a flag below 1.25, the scenario
 * asserts that refusal on both.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { until } from '../../harness/wait-until.ts';
import { atLeast, type ApiVersion } from '../../protocol/versions.ts';
import { CLI_API_VERSIONS, DOCKER, runCli, type CliResult } from '../cli/docker-cli-process.ts';
import { listedScenarios } from './known-gaps.ts';
import { freePort, runScenario, TARGET_KINDS, targetForSuite, type ClientTarget } from './targets.ts';

/** The docker CLIs on this machine, one per version line. */
function installedClis(): { file: string; version: string }[] {
  const found = new Map<string, string>();
  for (const file of [DOCKER, '/usr/bin/docker', '/usr/local/bin/docker']) {
    const probe = spawnSync(file, ['--version'], { encoding: 'utf8' });
    const version = /Docker version (\d+\.\d+)/.exec(probe.stdout ?? '')?.[1];
    if (probe.status === 0 && version && !found.has(version)) found.set(version, file);
  }
  return [...found].map(([version, file]) => ({ file, version }));
}
const CLIS = installedClis();
if (CLIS.length === 0) console.warn('docker CLI client scenarios skipped: no docker CLI found (install docker.io or set SHIPSHAPE_DOCKER_CLI)');

/** CLI calls against dockerd wait on real containers and tasks */
const CALL_TIMEOUT_MS = 60_000;
const SCENARIO_TIMEOUT_MS = 120_000;
const TASK_WAIT = { timeoutMs: 60_000, intervalMs: 300 };

interface Cli {
  docker(args: string[], input?: string): Promise<CliResult>;
  /** a call that must succeed: its stdout */
  ok(args: string[], input?: string): Promise<string>;
  named(object: string): string;
  version: ApiVersion;
}

interface Scenario {
  outsideSwarm?: boolean;
  run(cli: Cli, target: ClientTarget): Promise<void>;
}

function cliOn(file: string, url: string, version: ApiVersion, target: ClientTarget, tag: string): Cli {
  const env = { ...process.env, DOCKER_HOST: url, DOCKER_API_VERSION: version, DOCKER_BUILDKIT: '0', DOCKER_CONFIG: path.join(target.workdir, 'docker-config') };
  const docker = (args: string[], input = '') => runCli(file, args, env, input, CALL_TIMEOUT_MS);
  const ok = async (args: string[], input?: string) => {
    const result = await docker(args, input);
    expect(result.code, `docker ${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result.stdout;
  };
  return { docker, ok, named: (object) => `sscli${tag}${process.pid}-${object}`, version };
}

/** Runs `body`, then removes what `removals` name whatever happened (the CLI calls that remove them may fail: already gone). */
async function removingAfter(cli: Cli, removals: string[][], body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } finally {
    for (const args of removals.reverse()) await cli.docker(args);
  }
}

/** The refusal the CLI itself prints for a command or flag newer than the pinned API version. */
function refusedBelow125(result: CliResult): void {
  expect([result.code, result.stderr]).toEqual([1, expect.stringMatching(/requires API version 1\.25, but the Docker daemon API version is 1\.24/)]);
}

const SCENARIOS: Record<string, Scenario> = {
  exec_env: {
    async run(cli, target) {
      const box = cli.named('exec');
      await removingAfter(cli, [['rm', '-f', box]], async () => {
        await cli.ok(['run', '-d', '--name', box, target.image, 'sleep', '300']);
        const result = await cli.docker(['exec', '-e', 'X=v', '-e', 'Y=w', box, 'sh', '-c', 'echo "[$X$Y]"']);
        if (!atLeast(cli.version, '1.25')) return refusedBelow125(result);
        expect(result).toEqual({ code: 0, stdout: '[vw]\n', stderr: '' });
        expect(await cli.ok(['exec', '-u', 'nobody', box, 'id', '-u'])).toBe('65534\n');
      });
    },
  },

  run_network_ip: {
    async run(cli, target) {
      const [network, box] = [cli.named('net'), cli.named('ip')];
      const prefix = `10.${200 + (process.pid % 50)}.${atLeast(cli.version, '1.25') ? 25 : 24}`;
      await removingAfter(cli, [['network', 'rm', network], ['rm', '-f', box]], async () => {
        await cli.ok(['network', 'create', '--subnet', `${prefix}.0/24`, network]);
        await cli.ok(['run', '-d', '--name', box, '--network', network, '--ip', `${prefix}.9`, '--network-alias', 'svc', target.image, 'sleep', '300']);
        const shown = await cli.ok(['inspect', '--format', `{{with index .NetworkSettings.Networks "${network}"}}{{.IPAddress}} {{.IPAMConfig.IPv4Address}} {{index .Aliases 0}}{{end}}`, box]);
        expect(shown).toBe(`${prefix}.9 ${prefix}.9 svc\n`);
      });
    },
  },

  plugin_install: {
    async run(cli, target) {
      const local = cli.named('plugin');
      const installed = await cli.docker(['plugin', 'install', '--grant-all-permissions', '--disable', '--alias', local, target.pluginRemote]);
      if (!atLeast(cli.version, '1.25')) return refusedBelow125(installed);
      await removingAfter(cli, [['plugin', 'rm', '-f', local]], async () => {
        expect(installed.code, installed.stderr).toBe(0);
        expect(installed.stdout).toMatch(new RegExp(`Installed plugin ${target.pluginRemote.replace(/[.:/]/g, '\\$&')}\\n$`));
        expect(await cli.ok(['plugin', 'ls', '--format', '{{.Name}} {{.Enabled}}'])).toContain(`${local}:latest false\n`);
        if (target.pluginRuns) {
          expect(await cli.ok(['plugin', 'enable', local])).toBe(`${local}\n`);
          expect(await cli.ok(['plugin', 'inspect', '--format', '{{.Enabled}}', local])).toBe('true\n');
          await cli.ok(['plugin', 'disable', local]);
        }
        expect(await cli.ok(['plugin', 'rm', local])).toBe(`${local}\n`);
      });
      if (!target.pluginRuns) return;
      // pull then enable, the install a user types
      const enabled = cli.named('plugin-enabled');
      await removingAfter(cli, [['plugin', 'rm', '-f', enabled]], async () => {
        await cli.ok(['plugin', 'install', '--grant-all-permissions', '--alias', enabled, target.pluginRemote]);
        expect(await cli.ok(['plugin', 'inspect', '--format', '{{.Enabled}}', enabled])).toBe('true\n');
      });
    },
  },

  swarm_lifecycle: {
    outsideSwarm: true,
    async run(cli) {
      await removingAfter(cli, [['swarm', 'leave', '--force']], async () => {
        const init = await cli.ok(['swarm', 'init', '--advertise-addr', '127.0.0.1', '--listen-addr', `127.0.0.1:${await freePort()}`]);
        const nodeId = /current node \((\w+)\) is now a manager/.exec(init)?.[1];
        expect(nodeId, init).toMatch(/^[0-9a-z]{25}$/);
        expect(await cli.ok(['info', '--format', '{{.Swarm.LocalNodeState}} {{.Swarm.NodeID}}'])).toBe(`active ${nodeId}\n`);
        const again = await cli.docker(['swarm', 'init', '--advertise-addr', '127.0.0.1']);
        expect([again.code, again.stderr]).toEqual([1, expect.stringMatching(/This node is already part of a swarm/)]);
        expect(await cli.ok(['swarm', 'join-token', '-q', 'worker'])).toMatch(/^SWMTKN-\S+\n$/);
        expect(await cli.ok(['node', 'ls', '--format', '{{.ID}} {{.ManagerStatus}}'])).toBe(`${nodeId} Leader\n`);
        const refused = await cli.docker(['swarm', 'leave']);
        expect([refused.code, refused.stderr]).toEqual([1, expect.stringMatching(/You are attempting to leave the swarm on a node that is participating as a manager/)]);
        expect(await cli.ok(['swarm', 'leave', '--force'])).toBe('Node left the swarm.\n');
        const outside = await cli.docker(['swarm', 'leave']);
        expect([outside.code, outside.stderr]).toEqual([1, expect.stringMatching(/This node is not part of a swarm/)]);
      });
    },
  },

  secrets: {
    async run(cli) {
      const secret = cli.named('secret');
      const created = await cli.docker(['secret', 'create', '--label', 'a=1', secret, '-'], 'top secret');
      if (!atLeast(cli.version, '1.25')) return refusedBelow125(created);
      await removingAfter(cli, [['secret', 'rm', secret]], async () => {
        expect(created.code, created.stderr).toBe(0);
        const id = created.stdout.trim();
        expect(id).toMatch(/^[0-9a-z]{25}$/);
        expect(await cli.ok(['secret', 'inspect', '--format', '{{.ID}} {{.Spec.Name}} {{.Spec.Labels}}', secret])).toBe(`${id} ${secret} map[a:1]\n`);
        expect(await cli.ok(['secret', 'ls', '--filter', `name=${secret}`, '--format', '{{.ID}}'])).toBe(`${id}\n`);
        expect(await cli.ok(['secret', 'rm', secret])).toBe(`${secret}\n`);
      });
    },
  },

  service_scale: {
    async run(cli, target) {
      const service = cli.named('svc');
      const running = async () => (await cli.ok(['service', 'ps', '--filter', 'desired-state=running', '--format', '{{.CurrentState}}', service])).split('\n').filter((line) => line.startsWith('Running'));
      try {
        // a short grace period: PID 1 ignores SIGTERM, and each removal would wait the default 10 s (on dockerd too)
        await cli.ok(['service', 'create', '--name', service, '--replicas', '1', '--stop-grace-period', '1s', target.image, 'sleep', '300']);
        await until(running, (tasks) => tasks.length === 1, { what: `${service} to run one task`, ...TASK_WAIT });
        expect(await cli.ok(['service', 'scale', `${service}=3`])).toMatch(new RegExp(`^${service} scaled to 3\\n`));
        await until(running, (tasks) => tasks.length === 3, { what: `${service} to run three tasks`, ...TASK_WAIT });
        await until(() => cli.ok(['service', 'ls', '--filter', `name=${service}`, '--format', '{{.Mode}} {{.Replicas}}']), (listed) => listed === 'replicated 3/3\n', { what: `${service} listed 3/3`, ...TASK_WAIT });
      } finally {
        await cli.docker(['service', 'rm', service]);
        // its task containers hold the image until they are gone
        await until(() => cli.docker(['ps', '-aq', '--filter', `label=com.docker.swarm.service.name=${service}`]), (left) => left.stdout === '', { what: `the containers of ${service} to go`, ...TASK_WAIT });
      }
    },
  },

  prune_and_df: {
    async run(cli, target) {
      const [box, label] = [cli.named('prune'), `shipshape-clients=${cli.named('prune')}`];
      await removingAfter(cli, [['rm', '-f', box]], async () => {
        const id = (await cli.ok(['create', '--label', label, '--name', box, target.image, 'true'])).trim();
        const pruned = await cli.docker(['container', 'prune', '--force', '--filter', `label=${label}`]);
        if (!atLeast(cli.version, '1.25')) return refusedBelow125(pruned);
        expect(pruned).toEqual({ code: 0, stdout: `Deleted Containers:\n${id}\n\nTotal reclaimed space: 0B\n`, stderr: '' });
        const usage = await cli.ok(['system', 'df']);
        expect(usage).toMatch(/^TYPE +TOTAL +ACTIVE +SIZE +RECLAIMABLE\nImages +\d+/);
      });
    },
  },

  build_cache: {
    async run(cli, target) {
      // the CLI's classic builder (DOCKER_BUILDKIT=0) sends cachefrom=[] with every build: the second build must still use the cache
      const image = cli.named('rebuilt');
      const dir = await fs.mkdtemp(path.join(target.workdir, 'build-'));
      await fs.writeFile(path.join(dir, 'Dockerfile'), `FROM ${target.image}\nENV REBUILT=yes\nLABEL shipshape.rebuilt=yes\n`);
      await removingAfter(cli, [['rmi', '-f', image]], async () => {
        const first = await cli.ok(['build', '-q', '-t', image, dir]);
        const second = await cli.docker(['build', '-t', image, dir]);
        expect(second.code, second.stderr).toBe(0);
        expect(second.stdout).toContain('Using cache');
        expect(await cli.ok(['inspect', '--format', '{{.Id}}', image])).toBe(first);
      });
    },
  },

  healthcheck: {
    async run(cli, target) {
      const box = cli.named('health');
      await removingAfter(cli, [['rm', '-f', box]], async () => {
        await cli.ok(['run', '-d', '--name', box, '--health-cmd', 'echo fine', '--health-interval', '1s', '--health-retries', '1', target.image, 'sleep', '300']);
        expect(await cli.ok(['inspect', '--format', '{{json .Config.Healthcheck}}', box])).toBe('{"Test":["CMD-SHELL","echo fine"],"Interval":1000000000,"Retries":1}\n');
        await until(() => cli.ok(['inspect', '--format', '{{.State.Health.Status}}', box]), (status) => status === 'healthy\n', { what: `${box} to be healthy`, timeoutMs: 30_000, intervalMs: 300 });
        expect(await cli.ok(['ps', '--filter', `name=${box}`, '--format', '{{.Status}}'])).toMatch(/^Up .+ \(healthy\)\n$/);
      });
    },
  },
};

const CLIENTS = CLIS.flatMap(({ file, version: cliVersion }) => CLI_API_VERSIONS.map((version) => ({ file, cliVersion, version, client: `docker-cli-${cliVersion}@${version}` })));

describe.skipIf(CLIS.length === 0)('docker CLI scenarios', () => {
  it('every known gap listed for a docker CLI names one of its scenarios', () => {
    const listed = CLIENTS.flatMap(({ client }) => listedScenarios(client));
    expect(listed.filter((scenario) => !(scenario in SCENARIOS))).toEqual([]);
  });

  describe.each(TARGET_KINDS)('against %s', { timeout: SCENARIO_TIMEOUT_MS }, (kind) => {
    const target = targetForSuite(kind, 'shipshape-docker-cli-clients-');
    describe.each(CLIENTS)('$client', ({ file, cliVersion, version, client }) => {
      it.each(Object.keys(SCENARIOS))('%s', async (name) => {
        const scenario = SCENARIOS[name] as Scenario;
        const url = scenario.outsideSwarm ? target().outsideSwarmUrl : target().url;
        if (!url) return console.warn(`${name} skipped on ${kind}: no node outside a swarm`);
        const tag = `${cliVersion.replace('.', '')}${version.replace('.', '')}`;
        await runScenario(client, name, target(), () => scenario.run(cliOn(file, url, version, target(), tag), target()));
      });
    });
  });
});
