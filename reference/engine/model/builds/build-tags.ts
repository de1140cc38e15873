/**
 * The build's `t` values as dockerd's tagger reads them before anything is built: each a name with
 * an optional tag (`latest` by default), never a digest nor a name that looks like an image id;
 * empty values are skipped and repeats count once. A bad one fails the request (500) with the
 * reference parser's words.
 */
import { EngineError } from '../common/errors.ts';
import { familiarString, parseImageReference } from '../images/image-reference.ts';

/** Familiar `repository:tag` names, in the order given. */
export function buildTags(values: readonly string[]): string[] {
  const tags: string[] = [];
  for (const value of values) {
    if (value === '') continue;
    const reference = parseImageReference(value);
    if (reference === undefined) {
      const lowercase = parseImageReference(value.toLowerCase()) !== undefined;
      throw new EngineError(lowercase ? 'invalid reference format: repository name must be lowercase' : 'invalid reference format');
    }
    if (/^[a-f0-9]{64}$/.test(reference.repository)) throw new EngineError(`invalid repository name (${reference.repository}), cannot specify 64-byte hexadecimal strings`);
    if (reference.digest !== undefined) throw new EngineError('build tag cannot contain a digest');
    const tag = familiarString(reference);
    if (!tags.includes(tag)) tags.push(tag);
  }
  return tags;
}
