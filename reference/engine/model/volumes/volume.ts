/**
 * One volume of the local driver: its name, the options and labels it was created with, and its
 * files, a tree of their own that every container mounting the volume shares
 * (filesystem/volume-mounts.ts). Where its files live on the host is the HTTP layer's to say: the
 * root directory is the dialect's.
 */
import { LayerIndex } from '../../filesystem/layer-index.ts';

/** The only volume driver the engine has. */
export const LOCAL_DRIVER = 'local';

export class Volume {
  readonly driver = LOCAL_DRIVER;
  readonly files = new LayerIndex();

  constructor(
    readonly name: string,
    readonly createdAt: Date,
    readonly labels: Record<string, string>,
    /** DriverOpts, as given */
    readonly options: Record<string, string>,
  ) {
    this.files.set('/', { kind: 'directory', mode: 0o755, uid: 0, gid: 0, mtime: createdAt, opaque: false });
  }
}
