/**
 * The daemons the client scenarios run against. Real dockerd, when SHIPSHAPE_DOCKERD_HOST names one
 * (CI's live job sets it to its private dockerd), is the expectation: every scenario asserts what dockerd
 * does, and was run there first. The reference (`shipshape serve`) always runs them.
 *
 * Each target is two nodes: one in a one-node swarm (CI's dockerd is one; `serve` by default) for the
 * scenarios that use swarm objects, and one outside any swarm for swarm init and leave:
 * SHIPSHAPE_DOCKERD_NO_SWARM_HOST (a dockerd of its own, which .ci/run starts and stops; those scenarios
 * skip on dockerd without it) and `serve --swarm false`.
 *
 * Everything a suite makes on dockerd it removes again: the fixture image, the plugin's registry.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { createDispatcher } from '../../harness/client/dispatcher.ts';
import { EngineClient } from '../../harness/client/engine-client.ts';
import { ensureFixtureImage } from '../../harness/fixture-image.ts';
import { connectionOf } from '../../harness/run/prepare-target.ts';
import { until } from '../../harness/wait-until.ts';
import { DOCKER, runCli, SERVE_START_TIMEOUT_MS, serveReference, type ServedReference } from '../cli/docker-cli-process.ts';
import { knownGap } from './known-gaps.ts';

export const DOCKERD_HOST = process.env.SHIPSHAPE_DOCKERD_HOST;
const DOCKERD_NO_SWARM_HOST = process.env.SHIPSHAPE_DOCKERD_NO_SWARM_HOST;
if (DOCKERD_HOST && !DOCKERD_NO_SWARM_HOST) console.warn('client scenarios of swarm init/leave skipped on dockerd: SHIPSHAPE_DOCKERD_NO_SWARM_HOST names no dockerd outside a swarm');

export type TargetKind = 'dockerd' | 'reference';
/** dockerd first: it is the expectation */
export const TARGET_KINDS: TargetKind[] = DOCKERD_HOST ? ['dockerd', 'reference'] : ['reference'];

/** The reference's catalogue plugin (it simulates Docker Hub's vieux/sshfs). */
const CATALOGUE_PLUGIN = 'vieux/sshfs:latest';
/** Preparing dockerd (an image import, a registry and a plugin push) takes seconds; more on a busy machine. */
const PREPARE_TIMEOUT_MS = 120_000;

export interface ClientTarget {
  kind: TargetKind;
  /** a node in a one-node swarm */
  url: string;
  /** a node outside any swarm, or undefined where there is none */
  outsideSwarmUrl?: string;
  /** a busybox image on the target */
  image: string;
  /** a plugin the target can pull */
  pluginRemote: string;
  /** whether that plugin can run once enabled (the one pushed for dockerd serves no socket) */
  pluginRuns: boolean;
  /** a host directory for the sources of bind mounts (the reference never touches it) */
  workdir: string;
}

/** The target of `kind` for the describe block it is called in: made ready before its tests, released after them. */
export function targetForSuite(kind: TargetKind, prefix: string): () => ClientTarget {
  let target: ClientTarget | undefined;
  const releases: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    const workdir = await fs.mkdtemp(path.join(os.tmpdir(), `${prefix}${kind}-`));
    releases.push(() => fs.rm(workdir, { recursive: true, force: true }));
    if (kind === 'reference') {
      const [inSwarm, outside] = await Promise.all([
        serveIn(workdir, 'swarm', ['--swarm', 'true']),
        serveIn(workdir, 'no-swarm', ['--swarm', 'false']),
      ]);
      releases.push(() => inSwarm.stop(), () => outside.stop());
      const image = await fixtureImageOn(inSwarm.url);
      releases.push(() => image.release());
      target = { kind, url: inSwarm.url, outsideSwarmUrl: outside.url, image: image.image, pluginRemote: CATALOGUE_PLUGIN, pluginRuns: true, workdir };
      return;
    }
    const url = DOCKERD_HOST ?? '';
    const image = await fixtureImageOn(url);
    releases.push(() => image.release());
    const registry = await pluginInRegistry(url, workdir);
    releases.push(() => registry.stop());
    target = { kind, url, outsideSwarmUrl: DOCKERD_NO_SWARM_HOST, image: image.image, pluginRemote: registry.remote, pluginRuns: false, workdir };
  }, Math.max(SERVE_START_TIMEOUT_MS, PREPARE_TIMEOUT_MS));
  afterAll(async () => {
    for (const release of releases.reverse()) await release();
  });
  return () => {
    if (!target) throw new Error(`the ${kind} target was not made ready (its beforeAll failed)`);
    return target;
  };
}

async function serveIn(workdir: string, name: string, flags: string[]): Promise<ServedReference> {
  const dir = path.join(workdir, name);
  await fs.mkdir(dir);
  return serveReference(dir, flags);
}

/** The harness's own busybox fixture: the daemon's busybox:latest, or the host's busybox imported under a tag of this suite's. */
async function fixtureImageOn(url: string): Promise<{ image: string; release(): Promise<void> }> {
  const connection = connectionOf(url);
  const dispatcher = createDispatcher(connection);
  const fixture = await ensureFixtureImage(new EngineClient(connection, dispatcher, '1.25'), process.env.SHIPSHAPE_BUSYBOX ?? '/bin/busybox', `clients${process.pid}`)
    .catch(async (error: unknown) => {
      await dispatcher.close();
      throw error;
    });
  return {
    image: fixture.image,
    release: async () => {
      await fixture.release();
      await dispatcher.close();
    },
  };
}

/** A free TCP port on the loopback. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A plugin dockerd can pull without Docker Hub: distribution's registry (Debian's docker-registry) on a
 * loopback port (dockerd pulls from 127.0.0.0/8 over plain HTTP), and a volume plugin made on dockerd
 * with `docker plugin create`, pushed there and removed from dockerd again. It serves no socket, so it
 * is never enabled.
 */
async function pluginInRegistry(dockerdUrl: string, workdir: string): Promise<{ remote: string; stop(): Promise<void> }> {
  const port = await freePort();
  const config = path.join(workdir, 'registry.yml');
  await fs.writeFile(config, `version: 0.1\nstorage:\n  filesystem:\n    rootdirectory: ${path.join(workdir, 'registry')}\nhttp:\n  addr: 127.0.0.1:${port}\n`);
  const registry: ChildProcess = spawn('docker-registry', ['serve', config], { stdio: 'ignore' });
  const stop = async () => {
    if (registry.exitCode === null) registry.kill('SIGTERM');
  };
  try {
    await until(() => fetch(`http://127.0.0.1:${port}/v2/`).then((res) => res.status, () => 0), (status) => status === 200, { what: 'docker-registry to answer /v2/' });
    const plugin = path.join(workdir, 'plugin');
    await fs.mkdir(path.join(plugin, 'rootfs'), { recursive: true });
    await fs.writeFile(path.join(plugin, 'rootfs', 'plugin'), '#!/bin/sh\n', { mode: 0o755 });
    await fs.writeFile(path.join(plugin, 'config.json'), JSON.stringify({
      description: 'a plugin of the shipshape client scenarios',
      documentation: 'https://example.com/shipshape',
      interface: { types: ['docker.volumedriver/1.0'], socket: 'shipshape.sock' },
      entrypoint: ['/plugin'],
      network: { type: 'host' },
      env: [{ name: 'DEBUG', settable: ['value'], value: '0' }],
    }));
    const remote = `127.0.0.1:${port}/shipshape/client-plugin:v1`;
    const env = { ...process.env, DOCKER_HOST: dockerdUrl, DOCKER_CONFIG: path.join(workdir, 'docker-config') };
    for (const args of [['plugin', 'create', remote, plugin], ['plugin', 'push', remote], ['plugin', 'rm', remote]]) {
      const result = await runCli(DOCKER, args, env, '', 60_000);
      expect(result.code, `docker ${args.join(' ')}: ${result.stderr}`).toBe(0);
    }
    return { remote, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Runs a scenario. On the reference, a scenario listed in known-gaps.json must still fail: the list
 * only shrinks (a listed gap that passes fails the test, asking for its entry to go).
 */
export async function runScenario(client: string, scenario: string, target: ClientTarget, body: () => Promise<void>): Promise<void> {
  const gap = target.kind === 'reference' ? knownGap(client, scenario) : undefined;
  if (gap === undefined) return body();
  let passed = false;
  try {
    await body();
    passed = true;
  } catch {
    // the known gap, as listed
  }
  expect(passed, `${client} ${scenario} now passes on the reference: remove its entry from test/clients/known-gaps.json (${gap})`).toBe(false);
}
