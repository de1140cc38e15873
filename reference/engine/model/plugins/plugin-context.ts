/**
 * What POST /plugins/create reads (dockerd's CreateFromContext): a tar holding the plugin's
 * config.json at its top and its files under rootfs/. The rootfs becomes a tar of its own, its
 * members re-rooted at `/`.
 */
import { readTar, writeTar } from '../../filesystem/tar-io.ts';
import { InvalidParameterError } from '../common/errors.ts';
import type { PluginManifest } from './plugin-manifest.ts';
import { readPluginConfig } from './plugin-config.ts';

const ROOTFS = /^(?:\.\/)?rootfs\/(.*)$/;

export async function readPluginContext(archive: Buffer): Promise<{ manifest: PluginManifest; rootfs: Buffer }> {
  let members;
  try {
    members = await readTar(archive);
  } catch (error) {
    throw new InvalidParameterError(`the plugin context is not a tar: ${error instanceof Error ? error.message : String(error)}`);
  }
  const config = members.find((member) => member.header.name.replace(/^\.\//, '') === 'config.json');
  if (config === undefined) throw new InvalidParameterError('the plugin context has no config.json');
  const rootfs = members.flatMap((member) => {
    const inside = ROOTFS.exec(member.header.name)?.[1];
    return inside ? [{ ...member, header: { ...member.header, name: inside } }] : [];
  });
  return { manifest: readPluginConfig(config.data).manifest, rootfs: await writeTar(rootfs) };
}
