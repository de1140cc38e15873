/**
 * Test helper: tars from short member lists and back, through the reference's own tar-io (tar-stream
 * underneath). A member's size follows its data; tar-stream gives a directory 0755 and anything else
 * 0644 when no mode is said.
 */
import type { Header } from 'tar-stream';
import { readTar, writeTar } from '../../../reference/engine/filesystem/tar-io.ts';

export interface Member {
  name: string;
  type?: Header['type'];
  data?: string;
  linkname?: string;
  mode?: number;
  mtime?: Date;
}

export interface ReadMember {
  name: string;
  type: Header['type'];
  linkname: string | null;
  data: string;
}

/** `defaults` fill in the header fields the members leave out. */
export function tarOf(members: Member[], defaults: Partial<Header> = {}): Promise<Buffer> {
  return writeTar(members.map(({ data = '', ...header }) => ({ header: { ...defaults, ...header, size: Buffer.byteLength(data) }, data: Buffer.from(data) })));
}

export async function membersOf(archive: Buffer): Promise<ReadMember[]> {
  return (await readTar(archive)).map(({ header, data }) => ({ name: header.name, type: header.type ?? 'file', linkname: header.linkname ?? null, data: data.toString() }));
}
