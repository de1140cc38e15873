/**
 * The reference engine's state and rules, with no HTTP and no API versions: the backend the HTTP
 * layer calls. Time and ids come from injectable sources so that tests are deterministic.
 */
import { ContainerStore } from './container-store.ts';
import { ImageStore } from './image-store.ts';
import { randomId } from './random-ids.ts';
import { SystemInfo } from './system-info.ts';

export interface EngineModelOptions {
  /** the current time (default: the real one) */
  clock?: () => Date;
  /** a new 64-hex-digit id on each call (default: random) */
  ids?: () => string;
}

export class EngineModel {
  readonly clock: () => Date;
  readonly images: ImageStore;
  readonly containers: ContainerStore;
  readonly system: SystemInfo;

  constructor(options: EngineModelOptions = {}) {
    this.clock = options.clock ?? (() => new Date());
    this.images = new ImageStore();
    this.containers = new ContainerStore(this.images, this.clock, options.ids ?? randomId);
    this.system = new SystemInfo(this.containers, this.images, this.clock);
  }

  /** Back to the state of a fresh engine: no containers, the seeded images only. */
  reset(): void {
    this.containers.clear();
    this.images.reset();
  }
}
