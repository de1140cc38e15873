/**
 * The layer of the reference's synthetic `busybox:latest`: the fixture image's layout
 * (fixtures/busybox-rootfs.ts), built in memory. `/bin/busybox` is empty — the reference interprets
 * the applets, it never runs the binary — so the layer declares the size of the real one it stands
 * for. A test holds this layout equal to the fixture tar's.
 */
import { BUSYBOX_APPLETS, ROOTFS_MTIME } from '../../../fixtures/busybox-rootfs.ts';
import type { LayerEntry } from './layer-entry.ts';
import { Layer, type LayerOptions } from './layer.ts';

const PASSWD = 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n';
const GROUP = 'root:x:0:\nnogroup:x:65534:\n';

const owner = { uid: 0, gid: 0, mtime: ROOTFS_MTIME };
const directory = (mode: number): LayerEntry => ({ ...owner, kind: 'directory', mode, opaque: false });
const file = (mode: number, data: string): LayerEntry => ({ ...owner, kind: 'file', mode, data: Buffer.from(data) });

/** @param options `size`: what the layer reports (the image's size, default its content bytes) */
export function busyboxRootfsLayer(options: LayerOptions = {}): Layer {
  return new Layer(
    [
      ['/bin', directory(0o755)],
      ['/bin/busybox', file(0o755, '')],
      ...BUSYBOX_APPLETS.map((applet): [string, LayerEntry] => [`/bin/${applet}`, { ...owner, kind: 'symlink', mode: 0o777, target: 'busybox' }]),
      ['/dev', directory(0o755)],
      ['/etc', directory(0o755)],
      ['/etc/group', file(0o644, GROUP)],
      ['/etc/passwd', file(0o644, PASSWD)],
      ['/proc', directory(0o555)],
      ['/root', directory(0o700)],
      ['/sys', directory(0o555)],
      ['/tmp', directory(0o1777)],
    ],
    options,
  );
}
