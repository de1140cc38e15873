/**
 * The plugins the reference can pull: a simulated registry holding real Docker Hub plugins with
 * their published manifests, so that the checks that pull them pass unchanged on a daemon that
 * reaches Docker Hub. `vieux/sshfs` is the one Docker's documentation installs
 * (github.com/vieux/docker-volume-sshfs, config.json).
 */
import { NotFoundError } from '../common/errors.ts';
import { checkedImageReference, familiarString } from '../images/image-reference.ts';
import type { PluginManifest } from './plugin-manifest.ts';

const SSHFS: PluginManifest = {
  description: 'sshFS plugin for Docker',
  documentation: 'https://docs.docker.com/engine/extend/plugins/',
  interfaceTypes: ['docker.volumedriver/1.0'],
  socket: 'sshfs.sock',
  entrypoint: ['/docker-volume-sshfs'],
  workDir: '',
  networkType: 'host',
  capabilities: ['CAP_SYS_ADMIN'],
  allowAllDevices: false,
  devices: [{ name: '', description: '', settable: null, path: '/dev/fuse' }],
  mounts: [
    { name: 'state', description: '', settable: ['source'], source: '/var/lib/docker/plugins/', destination: '/mnt/state', type: 'bind', options: ['rbind'] },
    { name: 'sshkey', description: '', settable: ['source'], source: '', destination: '/root/.ssh', type: 'bind', options: ['rbind'] },
  ],
  env: [{ name: 'DEBUG', description: '', settable: ['value'], value: '0' }],
  args: { name: '', description: '', settable: null, value: null },
  propagatedMount: '/mnt/volumes',
  ipcHost: false,
  pidHost: false,
  dockerVersion: '18.05.0-ce-rc1',
};

/** By familiar name and tag. */
const CATALOGUE = new Map<string, PluginManifest>([['vieux/sshfs:latest', SSHFS]]);

export interface CataloguePlugin {
  /** familiar `repository:tag` */
  reference: string;
  manifest: PluginManifest;
}

/** The catalogue's plugin of that name (tag `latest` when none is given); a malformed name is refused as dockerd parses references. */
export function catalogueEntry(remote: string): CataloguePlugin {
  const reference = familiarString(checkedImageReference(remote));
  const manifest = CATALOGUE.get(reference);
  if (manifest === undefined) {
    throw new NotFoundError(`error resolving plugin reference: pull access denied, repository does not exist or may require authorization: ${reference}`);
  }
  return { reference, manifest };
}
