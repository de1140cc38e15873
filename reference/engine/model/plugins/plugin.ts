/**
 * One installed plugin: its id, its local name (`repository` and `tag`, which may differ from what
 * it was pulled as), the manifest and rootfs it came with, its settings, and whether it is enabled.
 */
import { defaultSettings, type PluginManifest, type PluginSettings } from './plugin-manifest.ts';

export class Plugin {
  enabled = false;
  readonly settings: PluginSettings;

  constructor(
    readonly id: string,
    readonly repository: string,
    readonly tag: string,
    /** what it was pulled as, familiar `repository:tag` */
    readonly remote: string,
    readonly manifest: PluginManifest,
    /** the files it runs on, a tar: what a push uploads as its one layer */
    readonly rootfs: Buffer,
  ) {
    this.settings = defaultSettings(manifest);
  }

  /** `repository:tag`, what dockerd names the plugin by in its messages and events. */
  get name(): string {
    return `${this.repository}:${this.tag}`;
  }
}
