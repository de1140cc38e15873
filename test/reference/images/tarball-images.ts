/**
 * Test helper: an image store with its events recorded, images stacked on its busybox, and a saved
 * tarball read back member by member with tar-stream.
 */
import { createHash } from 'node:crypto';
import type { Header } from 'tar-stream';
import type { LayerEntry } from '../../../reference/engine/filesystem/layer-entry.ts';
import { Layer } from '../../../reference/engine/filesystem/layer.ts';
import { readTar } from '../../../reference/engine/filesystem/tar-io.ts';
import { EventBus, type EngineEvent } from '../../../reference/engine/model/events/event-bus.ts';
import { ImageStore } from '../../../reference/engine/model/images/image-store.ts';
import type { Image } from '../../../reference/engine/model/images/image.ts';

export const START = new Date('2024-03-01T12:00:00.000Z');

export function imageStore(): { images: ImageStore; events: EngineEvent[] } {
  let now = START.getTime();
  const bus = new EventBus();
  const events: EngineEvent[] = [];
  bus.subscribe((event) => events.push(event));
  return { images: new ImageStore({ clock: () => new Date((now += 1000)), events: bus }), events };
}

export const sha256 = (bytes: Buffer | string) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

export const fileEntry = (data: string): LayerEntry => ({ kind: 'file', mode: 0o644, uid: 0, gid: 0, mtime: START, data: Buffer.from(data) });

/** An image on `parent` whose layer writes `files` (path → content). */
export function stacked(images: ImageStore, parent: Image, files: Record<string, string>, tags: string[] = []): Promise<Image> {
  const layer = new Layer(Object.entries(files).map(([path, data]): [string, LayerEntry] => [path, fileEntry(data)]));
  return images.create({ parent, layer, config: parent.config, createdBy: `/bin/sh -c #(nop) ADD ${Object.keys(files).join(' ')}`, tags });
}

export interface TarballMember {
  header: Header;
  data: Buffer;
}

/** The members of a tarball by name (a directory's without its trailing slash), in order. */
export async function tarballMembers(archive: Buffer): Promise<Map<string, TarballMember>> {
  const members = await readTar(archive);
  return new Map(members.map(({ header, data }) => [header.name.replace(/\/$/, ''), { header: header as Header, data }]));
}

export function jsonOf<T = Record<string, unknown>>(member: TarballMember | undefined): T {
  if (member === undefined) throw new Error('no such member');
  return JSON.parse(member.data.toString()) as T;
}
