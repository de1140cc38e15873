/**
 * An image: names, the config document its id is the digest of, the config a container inherits, its
 * history, and its read-only layers, which every container created from it shares under its own
 * writable layer.
 */
import type { HealthConfig } from '../../builder/run-config.ts';
import type { ImageLayerStack } from '../../filesystem/image-layer-stack.ts';
import type { Layer } from '../../filesystem/layer.ts';

/** HEALTHCHECK's config, as the builder (which sets it) defines it. */
export type { HealthConfig };

/**
 * The container config an image carries (Docker's image `config` and `container_config`), with the
 * fields in the order dockerd writes them into the config document.
 */
export interface ImageConfig {
  Hostname: string;
  Domainname: string;
  User: string;
  AttachStdin: boolean;
  AttachStdout: boolean;
  AttachStderr: boolean;
  /** `80/tcp` → `{}` */
  ExposedPorts: Record<string, object> | null;
  Tty: boolean;
  OpenStdin: boolean;
  StdinOnce: boolean;
  Env: string[];
  Cmd: string[] | null;
  Healthcheck?: HealthConfig;
  /** the name or id the container was created from ('' for an image's own config) */
  Image: string;
  Volumes: Record<string, object> | null;
  WorkingDir: string;
  Entrypoint: string[] | null;
  /** only when true (Go omitempty): a commit's config body can set it */
  NetworkDisabled?: boolean;
  OnBuild: string[] | null;
  Labels: Record<string, string>;
  StopSignal?: string;
  /** SHELL: only when set (Go omitempty) */
  Shell?: string[];
}

/** One step of an image's history, as its config document records it. */
export interface HistoryEntry {
  created: Date;
  createdBy: string;
  comment: string;
  author?: string;
  /** the step changed only the config, it added no layer */
  emptyLayer: boolean;
}

export interface Image {
  /** `sha256:` and the sha256 of configDocument */
  id: string;
  /** familiar `repository:tag` names */
  repoTags: string[];
  /** familiar `repository@sha256:…` names */
  repoDigests: string[];
  /** id of the parent image, '' when none (builds and commits have one; loaded or imported images may not) */
  parent: string;
  created: Date;
  /** the sum of the layers' sizes, the parent's included */
  size: number;
  layers: ImageLayerStack;
  architecture: string;
  os: string;
  config: ImageConfig;
  /** the config of the container the image was committed from (or the build step's) */
  containerConfig: ImageConfig;
  /** id of the container the image was committed from, '' when none */
  container: string;
  comment: string;
  author: string;
  dockerVersion: string;
  history: HistoryEntry[];
  /** per layer, bottom first: `sha256:` and the sha256 of the layer's uncompressed tar */
  diffIds: string[];
  /** Docker's image JSON exactly as stored: its sha256 is the id */
  configDocument: Buffer;
  /** when a name was last given to it (inspect's Metadata.LastTagTime); absent when never */
  lastTagTime?: Date;
}

/** What a new image is made of: its parent's layers, its own (if any) and its config. */
export interface NewImage {
  parent?: Image;
  /** the layer the step adds; absent, the step only changes the config (history `empty_layer`) */
  layer?: Layer;
  config: ImageConfig;
  /** default: config */
  containerConfig?: ImageConfig;
  /** id of the container committed, '' or absent when none */
  container?: string;
  comment?: string;
  author?: string;
  /** what history shows as the step's command, e.g. `/bin/sh -c #(nop)  CMD ["sh"]` ('' for none) */
  createdBy: string;
  /** default: the store's clock */
  created?: Date;
  /** familiar names to give the image */
  tags?: string[];
}

/** The config of an image that sets nothing, as dockerd writes an imported image's. */
export function emptyImageConfig(): ImageConfig {
  return {
    Hostname: '',
    Domainname: '',
    User: '',
    AttachStdin: false,
    AttachStdout: false,
    AttachStderr: false,
    ExposedPorts: null,
    Tty: false,
    OpenStdin: false,
    StdinOnce: false,
    Env: [],
    Cmd: null,
    Image: '',
    Volumes: null,
    WorkingDir: '',
    Entrypoint: null,
    OnBuild: null,
    Labels: {},
  };
}

/** The hex part of an image id, which prefixes are matched against. */
export function hexOfImageId(id: string): string {
  return id.replace(/^sha256:/, '');
}
