/** Test helper: the FilesystemError code an operation is refused with (undefined when it succeeds). */
import { FilesystemError } from '../../../reference/engine/filesystem/container-filesystem.ts';

function codeOfError(error: unknown): string {
  if (error instanceof FilesystemError) return error.code;
  throw error;
}

export function codeOf(action: () => unknown): string | undefined {
  try {
    action();
    return undefined;
  } catch (error) {
    return codeOfError(error);
  }
}

export async function asyncCodeOf(action: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await action();
    return undefined;
  } catch (error) {
    return codeOfError(error);
  }
}
