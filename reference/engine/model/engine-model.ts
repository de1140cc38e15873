/**
 * The reference engine's state and rules, with no HTTP and no API versions: the backend the HTTP
 * layer calls. Time, timers and ids come from injectable sources so that tests are deterministic.
 */
import { realScheduler, type Scheduler } from '../process/index.ts';
import { ContainerArchiveOperations } from './containers/container-archive-operations.ts';
import { ContainerAttach } from './containers/container-attachment.ts';
import { ContainerEvents } from './containers/container-events.ts';
import { HealthMonitor } from './containers/container-health.ts';
import { PortPublisher } from './containers/container-ports.ts';
import { ContainerLifecycle } from './containers/container-lifecycle.ts';
import { ContainerOperations } from './containers/container-operations.ts';
import { ContainerStats } from './containers/container-stats.ts';
import { ContainerStore } from './containers/container-store.ts';
import { ContainerVolumes } from './containers/container-volumes.ts';
import { EventBus } from './events/event-bus.ts';
import { ExecStore } from './containers/exec-store.ts';
import { ContainerCommits } from './containers/container-commit.ts';
import { offlineRegistries, type Registries } from './images/image-registry.ts';
import { ImageStore } from './images/image-store.ts';
import { NetworkConnections } from './networks/network-connections.ts';
import { NetworkEvents } from './networks/network-events.ts';
import { NetworkStore } from './networks/network-store.ts';
import { PluginEvents } from './plugins/plugin-events.ts';
import { PluginStore } from './plugins/plugin-store.ts';
import { Pruner } from './system/prune.ts';
import { randomId, randomSwarmId } from './common/random-ids.ts';
import { SwarmDataStore } from './swarm/swarm-data-store.ts';
import { ServiceStore } from './swarm/service-store.ts';
import { SwarmCluster } from './swarm/swarm-cluster.ts';
import { SystemInfo } from './system/system-info.ts';
import { TaskOrchestrator } from './swarm/task-orchestrator.ts';
import { TaskStore } from './swarm/task-store.ts';
import { VolumeEvents } from './volumes/volume-events.ts';
import { VolumeStore } from './volumes/volume-store.ts';

export interface EngineModelOptions {
  /** the current time (default: the scheduler's) */
  clock?: () => Date;
  /** a new 64-hex-digit id on each call (default: random) */
  ids?: () => string;
  /** ids of networks and their endpoints (default: random), apart from `ids` so that no other id depends on the networks a container joined */
  networkIds?: () => string;
  /** whether the engine manages a one-node swarm: services, tasks, swarm-scoped networks (default: no swarm) */
  swarm?: boolean;
  /** ids of the swarm's objects, 25 base-36 digits per call (default: random) */
  swarmIds?: () => string;
  /** the clock processes sleep on and stop timeouts and restart delays wait on (default: real time) */
  scheduler?: Scheduler;
  /** how pulls, pushes and logins reach registries (default: none is reachable, as on a daemon without network) */
  registries?: Registries;
  /** the daemon's resolver configuration, resolv.conf text, from which containers' /etc/resolv.conf is made (default: none) */
  resolvConf?: string;
}

export class EngineModel {
  readonly clock: () => Date;
  readonly scheduler: Scheduler;
  readonly events = new EventBus();
  /** container events with dockerd's attributes, for every area that acts on containers (exec, archive, …) */
  readonly containerEvents: ContainerEvents;
  readonly images: ImageStore;
  readonly registries: Registries;
  readonly volumes: VolumeStore;
  readonly networks: NetworkStore;
  /** containers on networks: connect, disconnect, and what starts and ends do */
  readonly networkConnections: NetworkConnections;
  readonly plugins: PluginStore;
  readonly containers: ContainerStore;
  readonly lifecycle: ContainerLifecycle;
  readonly operations: ContainerOperations;
  readonly attach: ContainerAttach;
  readonly execs: ExecStore;
  readonly stats: ContainerStats;
  readonly archives: ContainerArchiveOperations;
  readonly commits: ContainerCommits;
  readonly system: SystemInfo;
  readonly swarm: SwarmCluster;
  readonly services: ServiceStore;
  readonly tasks: TaskStore;
  readonly secrets: SwarmDataStore;
  readonly configs: SwarmDataStore;
  /** the host ports running containers publish */
  readonly ports: PortPublisher;
  /** runs the healthchecks of running containers */
  readonly health: HealthMonitor;
  /** the prune endpoints: what nothing uses, removed */
  readonly pruner: Pruner;

  constructor(options: EngineModelOptions = {}) {
    this.scheduler = options.scheduler ?? realScheduler;
    const scheduler = this.scheduler;
    this.clock = options.clock ?? (() => new Date(scheduler.now()));
    const ids = options.ids ?? randomId;
    this.swarm = new SwarmCluster({ clock: this.clock, ids: options.swarmIds ?? randomSwarmId, active: options.swarm });
    const containerEvents = new ContainerEvents(this.events, this.clock);
    this.containerEvents = containerEvents;
    this.images = new ImageStore({ clock: this.clock, events: this.events });
    this.registries = options.registries ?? offlineRegistries;
    const volumeEvents = new VolumeEvents(this.events, this.clock);
    this.volumes = new VolumeStore({ clock: this.clock, ids, events: volumeEvents });
    const containerVolumes = new ContainerVolumes(this.volumes, volumeEvents);
    this.containers = new ContainerStore({
      images: this.images,
      clock: this.clock,
      ids,
      events: containerEvents,
      volumes: containerVolumes,
    });
    const networkEvents = new NetworkEvents(this.events, this.clock);
    const networkIds = options.networkIds ?? randomId;
    this.networks = new NetworkStore({ clock: this.clock, ids: networkIds, events: networkEvents, inSwarm: () => this.swarm.active, serviceUsing: (network) => this.services.usingNetwork(network.id) });
    this.swarm.onLeave(() => this.networks.removeSwarmScoped());
    this.networkConnections = new NetworkConnections({ networks: this.networks, containers: this.containers, events: networkEvents, ids: networkIds });
    this.plugins = new PluginStore({ ids, events: new PluginEvents(this.events, this.clock) });
    this.lifecycle = new ContainerLifecycle({
      store: this.containers,
      events: containerEvents,
      scheduler,
      clock: this.clock,
      volumes: containerVolumes,
      networking: this.networkConnections,
      daemonResolvConf: options.resolvConf ?? '',
    });
    this.operations = new ContainerOperations(containerEvents, this.clock);
    this.attach = new ContainerAttach(containerEvents);
    this.execs = new ExecStore({ containers: this.containers, events: containerEvents, ids, scheduler });
    this.ports = new PortPublisher(this.events, this.containers);
    this.health = new HealthMonitor({ bus: this.events, containers: this.containers, execs: this.execs, events: containerEvents, scheduler, clock: this.clock });
    this.stats = new ContainerStats({ scheduler, clock: this.clock, containers: this.containers });
    this.archives = new ContainerArchiveOperations(containerEvents);
    this.commits = new ContainerCommits({ images: this.images, lifecycle: this.lifecycle, events: containerEvents });
    this.system = new SystemInfo(this.containers, this.images, this.events, this.clock);
    this.tasks = new TaskStore(this.swarm);
    const orchestrator = new TaskOrchestrator({ cluster: this.swarm, tasks: this.tasks, containers: this.containers, lifecycle: this.lifecycle, images: this.images, registries: this.registries, scheduler, clock: this.clock, secretData: (id) => this.secrets.dataOf(id) });
    this.secrets = new SwarmDataStore({ kind: 'secret', cluster: this.swarm, usedBy: (secret) => this.services.usingSecret(secret.meta.id) });
    // services here name no configs (ContainerSpec.Configs is API 1.30's): none is ever in use
    this.configs = new SwarmDataStore({ kind: 'config', cluster: this.swarm, usedBy: () => [] });
    this.services = new ServiceStore({ cluster: this.swarm, orchestrator, secrets: this.secrets, networks: this.networks });
    this.pruner = new Pruner({ containers: this.containers, lifecycle: this.lifecycle, images: this.images, volumes: this.volumes, networks: this.networks, events: this.events, clock: this.clock });
  }

  /** Back to the state of a fresh engine: no services or tasks, no containers (their processes ended), no exec instances, no volumes, the predefined networks only, no plugins, the seeded images, no events. */
  reset(): void {
    this.services.clear();
    this.secrets.clear();
    this.configs.clear();
    this.swarm.reset();
    this.health.clear();
    this.lifecycle.shutdown();
    this.containers.clear();
    this.volumes.clear();
    this.networks.reset();
    this.plugins.clear();
    this.execs.clear();
    this.images.reset();
    this.events.clear();
  }
}
