/**
 * An image as far as containers need it today: names, id, the config a container inherits, and its
 * size. Layers and their filesystem come with a later issue.
 */
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
  architecture: string;
  os: string;
  config: ImageConfig;
}

/** The hex part of an image id, which prefixes are matched against. */
export function hexOfImageId(id: string): string {
  return id.replace(/^sha256:/, '');
}
