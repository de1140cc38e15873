/**
 * Before any check runs: start the embedded reference or make sure the live target answers, learn
 * what it is (GET /version), and put the fixture image in place. Unreachable is a TargetError: the
 * CLI says so in one line and exits 2.
 */
import { EngineClient } from '../client/engine-client.ts';
import { createDispatcher } from '../client/dispatcher.ts';
import { TargetError, type Connection, type TargetSpec } from '../target.ts';
import type { DialectName } from '../../protocol/dialect.ts';
import type { PersonalityName } from '../../protocol/personality-names.ts';
import type { AccountServices, RunSession } from '../session.ts';
import { infoEssentials, type ServerInfo, type ServerVersion } from '../report/types.ts';
import { ensureFixtureImage } from '../fixture-image.ts';
import { leftoverLines, objectsAddedSince, snapshotDaemon } from './daemon-snapshot.ts';
import { removeLeftovers } from './leftover-removal.ts';
import { newRunId } from '../resources.ts';
import { accountCapabilities, keepProfile, referenceServices } from './account-services.ts';
import { detectHostCapabilities } from './host-capabilities.ts';

export interface PrepareOptions {
  target: TargetSpec;
  dialect: DialectName;
  /** the embedded reference's personality (default dockerd's choices where the spec allows several) */
  personality?: PersonalityName;
  busyboxPath: string;
  seed: number;
  /** the token service and accounts API named by flags; against the reference, its own when none are named */
  accountServices?: AccountServices;
  /** `host:port` of a registry trusting the token service, for a live target; against the reference, its fixture registry when it starts its own services */
  registry?: string;
  /** `container:IMAGE`: the TCP port the image's daemon listens on (default 2375) */
  containerPort?: number;
  /** Ctrl-C while preparing: what was started so far is stopped, and the preparation ends in `Interrupted` */
  signal?: AbortSignal;
}

/** Ctrl-C came while the target was being prepared; what the preparation had started is gone again. */
export class Interrupted extends Error {
  override name = 'Interrupted';
}

export interface PreparedTarget {
  session: RunSession;
  server?: ServerVersion;
  info?: ServerInfo;
  /**
   * stops what the run started; on a live target, returns what the run left behind there, and each
   * clean-up step that failed. `targetGone`: the target stopped answering, so nothing on it is removed.
   */
  close(options?: { targetGone?: boolean }): Promise<string[]>;
}

const REACH_TIMEOUT_MS = 5_000;
/** A registry lookup (search, plugin privileges) that takes longer than this is a daemon waiting on a network it cannot reach. */
const SEARCH_TIMEOUT_MS = 5_000;

/**
 * Optional capabilities, each found by asking the target. `registry-index`: image search answers
 * (spec/2 §4.1), which on a live daemon needs its registry index over the network; the reference
 * simulates one. `plugins`: the target can pull a plugin from a registry (spec/2 §4.5). `swarm`: it
 * manages a swarm (spec/2 §4.6). `standalone`: it is in no swarm at all, where dockerd answers some
 * requests otherwise than in one (it asks the cluster first).
 */
export async function detectCapabilities(engine: EngineClient): Promise<string[]> {
  const capabilities: string[] = [];
  try {
    const search = await engine.get('/images/search', { query: { term: 'busybox', limit: 1 }, signal: AbortSignal.timeout(SEARCH_TIMEOUT_MS) });
    if (search.status === 200) capabilities.push('registry-index');
  } catch {
    // No answer in time: no index either.
  }
  if (await canPullPlugins(engine)) capabilities.push('plugins');
  capabilities.push(...(await swarmCapabilities(engine)));
  return capabilities;
}

/**
 * `host-loopback`: the target runs on this host and reaches its loopback (the reference, a Unix
 * socket, TCP to 127.0.0.0/8 or localhost), so a server a check starts on 127.0.0.1 is reachable.
 */
function onThisHost(target: TargetSpec): boolean {
  if (target.kind === 'reference' || target.url.startsWith('unix://')) return true;
  // a daemon in a container has a loopback of its own
  if (target.kind === 'container') return false;
  return /^[a-z]+:\/\/(?:127\.\d+\.\d+\.\d+|localhost)(?::\d+)?(?:\/|$)/.test(target.url);
}

/**
 * From GET /info's Swarm section: `swarm` for an active swarm manager, which services and tasks need;
 * `standalone` for a node in no swarm (no Swarm section, or LocalNodeState inactive or empty). A
 * worker, or a node joining or leaving, has neither.
 */
async function swarmCapabilities(engine: EngineClient): Promise<string[]> {
  const info = await engine.get('/info');
  if (info.status !== 200) return [];
  const swarm = info.json<{ Swarm?: { LocalNodeState?: string; ControlAvailable?: boolean } }>().Swarm;
  if (swarm?.LocalNodeState === 'active' && swarm.ControlAvailable === true) return ['swarm'];
  return ['', 'inactive', undefined].includes(swarm?.LocalNodeState) ? ['standalone'] : [];
}

/**
 * Whether the privileges of a real Docker Hub plugin (which the reference's catalogue simulates) come
 * back: it asks for some. dockerd 20.10 without registry access answers 200 with none rather than an
 * error, so an empty list counts as no.
 */
async function canPullPlugins(engine: EngineClient): Promise<boolean> {
  try {
    const privileges = await engine.get('/plugins/privileges', { query: { remote: 'vieux/sshfs:latest' }, signal: AbortSignal.timeout(SEARCH_TIMEOUT_MS) });
    if (privileges.status !== 200) return false;
    const body = privileges.json<unknown>();
    return Array.isArray(body) && body.length > 0;
  } catch {
    // No answer in time, or not JSON: no registry behind it.
    return false;
  }
}

export function connectionOf(address: string): Connection {
  if (address.startsWith('unix://')) return { origin: 'http://engine.sock', socketPath: address.slice('unix://'.length) };
  return { origin: address.replace(/^tcp:/, 'http:') };
}

export async function reach(engine: EngineClient, url: string): Promise<void> {
  try {
    const res = await engine.get('/_ping', { signal: AbortSignal.timeout(REACH_TIMEOUT_MS) });
    if (res.status !== 200) throw new TargetError(`${url} answered GET /_ping with ${res.status}: is it a container engine?`);
  } catch (error) {
    if (error instanceof TargetError) throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new TargetError(`cannot reach ${url}: ${why}`);
  }
}

export async function prepareTarget(options: PrepareOptions): Promise<PreparedTarget> {
  const closers: (() => Promise<void>)[] = [];
  const leftovers: string[] = [];
  let targetGone = false;
  // Every step runs: one that fails (the target went away) leaves the others to do.
  const close = async (closing: { targetGone?: boolean } = {}) => {
    targetGone = closing.targetGone ?? false;
    for (const closer of closers.splice(0).reverse()) {
      try {
        await closer();
      } catch (error) {
        leftovers.push(`clean-up failed: ${((error as Error).message ?? String(error)).split('\n')[0]}`);
      }
    }
    return leftovers;
  };
  try {
    let url: string;
    let connection: Connection;
    let accountServices = options.accountServices;
    let registry = options.registry;
    if (options.target.kind === 'reference') {
      // Loaded only when asked for: a run against a live daemon never loads the reference.
      const { startReference } = await import('../../reference/serve.ts');
      const withServices = accountServices === undefined;
      // tokens of the spec's shortest lifetime, so that the expiry check waits one minute, not five
      const services = { token: 'tcp://127.0.0.1:0', accounts: 'tcp://127.0.0.1:0', registry: 'tcp://127.0.0.1:0', tokenExpiresIn: 60 };
      const personality = options.personality ?? 'dockerd';
      // a swarm manager, as the live run's dockerd is made one, so that the swarm checks run
      const reference = await startReference({ dialect: options.dialect, personality, swarm: true, ...(withServices ? services : {}) });
      closers.push(() => reference.close());
      // the report says which personality was checked; the default keeps its plain name
      url = personality === 'dockerd' ? 'reference' : `reference:${personality}`;
      connection = connectionOf(reference.engineUrl);
      if (reference.token && reference.accounts) {
        accountServices = await referenceServices({ authUrl: reference.token.url, accountsUrl: reference.accounts.url, service: reference.token.service });
      }
      registry = reference.registry?.host ?? registry;
    } else if (options.target.kind === 'container') {
      // Loaded only when asked for, as the reference is: testcontainers and its Docker client weigh.
      const { startContainerTarget } = await import('./container-target.ts');
      const container = await startContainerTarget(options.target.image, options.containerPort ?? 2375);
      closers.push(() => container.remove());
      url = options.target.url;
      connection = connectionOf(container.address);
    } else {
      url = options.target.url;
      connection = options.target.connection;
    }
    if (options.signal?.aborted) throw new Interrupted('interrupted while starting the target');
    const dispatcher = createDispatcher(connection);
    closers.push(() => dispatcher.close());
    const engine = new EngineClient(connection, dispatcher, undefined);
    await reach(engine, url);

    const live = options.target.kind !== 'reference';
    const before = live ? await snapshotDaemon(engine) : undefined;
    const versionAnswer = await engine.get('/version');
    const server = versionAnswer.status === 200 ? versionAnswer.json<ServerVersion>() : undefined;
    const infoAnswer = await engine.get('/info');
    const info = infoAnswer.status === 200 ? infoEssentials(infoAnswer.json<Record<string, unknown>>()) : undefined;
    const runId = newRunId();
    const fixture = await ensureFixtureImage(engine, options.busyboxPath, runId);
    // Runs first at close: note what the checks left, remove it, then remove the fixture image.
    closers.push(async () => {
      if (targetGone) {
        if (options.target.kind === 'live') leftovers.push(`not cleaned up: the target stopped answering; shipshape cleanup --target ${url} removes what the run left there once it answers again`);
        return;
      }
      if (before) {
        const snapshot = async () => {
          const now = await snapshotDaemon(engine);
          now.images.delete(fixture.id);
          return objectsAddedSince(before, now);
        };
        const leftByChecks = await snapshot();
        const removal = await removeLeftovers(engine, runId);
        leftovers.push(...leftoverLines(leftByChecks, leftByChecks.length > 0 ? await snapshot() : []));
        leftovers.push(...removal.failed.map((line) => `could not remove ${line}`));
      }
      await fixture.release();
    });

    const restoreProfile = await keepProfile(accountServices);
    closers.push(async () => {
      leftovers.push(...(await restoreProfile()));
    });

    if (options.signal?.aborted) throw new Interrupted('interrupted while preparing the target');
    const session: RunSession = {
      runId,
      // a container target is a live daemon to the checks and the report
      target: { url, kind: live ? 'live' : 'reference', connection },
      dialect: options.dialect,
      fixtureImage: fixture.image,
      seed: options.seed,
      capabilities: [
        ...(await detectCapabilities(engine)),
        ...(await detectHostCapabilities(engine, fixture.image, runId)),
        ...accountCapabilities(accountServices),
        ...(registry && accountServices?.user ? ['registry'] : []),
        ...(onThisHost(options.target) ? ['host-loopback'] : []),
      ],
      ...(accountServices ? { accountServices } : {}),
      ...(registry ? { registry } : {}),
    };
    return { session, server, info, close };
  } catch (error) {
    await close();
    throw error;
  }
}
