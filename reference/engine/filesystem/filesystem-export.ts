/**
 * `GET /containers/{id}/export`: the merged filesystem as one tar, as dockerd's archive.Tar of the
 * container's root writes it — every entry under `/`, named relative to it (`bin/`, `bin/busybox`),
 * no member for `/` itself; the mount points as empty directories.
 */
import type { MergedView } from './merged-view.ts';
import { walkMerged } from './merged-walk.ts';
import { memberOf, writeTar, type TarMember } from './tar-io.ts';

export function exportFilesystem(view: MergedView): Promise<Buffer> {
  const members: TarMember[] = [];
  walkMerged(view, view.root(), (located, relative) => {
    if (relative !== '') members.push(memberOf(relative, located.entry));
  });
  return writeTar(members);
}
