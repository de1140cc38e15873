/**
 * The progress of a pull or a push (of an image or a plugin) as dockerd streams it: JSON messages
 * after a 200, and a failure once begun as the stream's last message.
 */
import type { ServerResponse } from 'node:http';
import type { RegistryProgress } from '../model/images/image-registry.ts';
import { JsonMessageStream } from './json-messages.ts';

/** A pull's or push's progress as dockerd's JSON messages; a failure once begun is the last one. */
export async function streamProgress(response: ServerResponse, work: (report: (line: RegistryProgress) => void) => Promise<void>): Promise<void> {
  const messages = new JsonMessageStream(response);
  messages.begin();
  try {
    await work((line) => {
      if (line.kind === 'message') messages.status(line.text, line.id);
      else if (line.kind === 'update') messages.update(line.status, line.id);
      else if (line.kind === 'progress') messages.progress(line.status, line.id, line.current, line.total);
      else messages.aux({ Tag: line.tag, Digest: line.digest, Size: line.size });
    });
  } catch (error) {
    messages.error(error instanceof Error ? error.message : String(error));
  }
  messages.end();
}
