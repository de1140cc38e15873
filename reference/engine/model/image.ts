/**
 * An image as far as containers need it today: names, id, the config a container inherits, and its
 * read-only layers, which every container created from it shares under its own writable layer.
 */
import type { ImageLayerStack } from '../filesystem/image-layer-stack.ts';

export interface ImageConfig {
  Cmd: string[] | null;
  Entrypoint: string[] | null;
  Env: string[];
  Labels: Record<string, string>;
  WorkingDir: string;
}

export interface Image {
  /** `sha256:` and 64 hex digits */
  id: string;
  repoTags: string[];
  repoDigests: string[];
  /** id of the parent image, '' when none */
  parent: string;
  created: Date;
  size: number;
  layers: ImageLayerStack;
  architecture: string;
  os: string;
  config: ImageConfig;
}

/** The hex part of an image id, which prefixes are matched against. */
export function hexOfImageId(id: string): string {
  return id.replace(/^sha256:/, '');
}
