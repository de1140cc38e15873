/** Writes the busybox fixture's rootfs tarball (as the harness imports it) to the path given: `node --import tsx fixture-rootfs.ts OUT [BUSYBOX]`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { buildBusyboxRootfs } from '../../fixtures/busybox-rootfs.ts';

const [out, busybox = '/bin/busybox'] = process.argv.slice(2);
if (!out) throw new Error('usage: fixture-rootfs.ts OUT [BUSYBOX]');
writeFileSync(out, await buildBusyboxRootfs(readFileSync(busybox)));
