/** A swarm service (spec/2 §2.7): its spec, the one it replaced, and its place in the swarm's store. */
import type { RegistryCredentials } from '../images/image-registry.ts';
import type { ServiceSpec } from './service-spec.ts';
import type { SwarmObjectMeta } from './swarm-cluster.ts';

export class Service {
  /** the spec before the last update, which dockerd shows as PreviousSpec */
  previousSpec: ServiceSpec | undefined;

  constructor(
    readonly meta: SwarmObjectMeta,
    public spec: ServiceSpec,
    /** X-Registry-Auth of the last create or update: what its tasks pull an image the engine lacks with */
    public registryCredentials: RegistryCredentials = {},
  ) {}

  get id(): string {
    return this.meta.id;
  }

  get name(): string {
    return this.spec.Name;
  }
}
