/**
 * Image names as the engine reads them: `busybox` is `busybox:latest`, and the default registry and
 * the `library/` namespace are implied, so `docker.io/library/busybox` names the same image.
 */
import { InvalidParameterError } from '../common/errors.ts';

export interface ImageReference {
  /** familiar repository name: `busybox`, `alice/app`, `registry.test:5000/app` */
  repository: string;
  tag?: string;
  digest?: string;
}

const NAME_MAX_LENGTH = 255;
const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const REPOSITORY = new RegExp(`^(?:[a-zA-Z0-9.-]+(?::\\d+)?/)?${COMPONENT}(?:/${COMPONENT})*$`);
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-fA-F0-9]{32,}$/;

/** The reference `text` names, or undefined when it is not a well-formed image name. */
export function parseImageReference(text: string): ImageReference | undefined {
  const [nameAndTag = '', digest, ...extra] = text.split('@');
  if (extra.length > 0 || (digest !== undefined && !DIGEST.test(digest))) return undefined;
  const tagSeparator = nameAndTag.lastIndexOf(':');
  const hasTag = tagSeparator > nameAndTag.lastIndexOf('/');
  const name = hasTag ? nameAndTag.slice(0, tagSeparator) : nameAndTag;
  const tag = hasTag ? nameAndTag.slice(tagSeparator + 1) : undefined;
  if (!REPOSITORY.test(name) || (tag !== undefined && !TAG.test(tag))) return undefined;
  return { repository: familiarName(name), ...(tag !== undefined && { tag }), ...(digest !== undefined && { digest }) };
}

function familiarName(name: string): string {
  const withoutRegistry = name.replace(/^(?:docker\.io|index\.docker\.io)\//, '');
  const withoutLibrary = withoutRegistry.replace(/^library\/(?=[^/]+$)/, '');
  return withoutLibrary;
}

/** `repository:tag` (tag `latest` when none is given), or `repository@digest` for a digest reference. */
export function familiarString(reference: ImageReference): string {
  if (reference.digest !== undefined) return `${reference.repository}@${reference.digest}`;
  return `${reference.repository}:${reference.tag ?? 'latest'}`;
}

/**
 * A familiar name in full (`busybox:latest` is `docker.io/library/busybox:latest`): the engine orders
 * an image's names by this form. The first component names a registry when it has a `.` or a `:`, or
 * is `localhost`.
 */
export function qualifiedName(familiar: string): string {
  const slash = familiar.indexOf('/');
  const first = slash < 0 ? '' : familiar.slice(0, slash);
  if (/[.:]/.test(first) || first === 'localhost') return familiar;
  return slash < 0 ? `docker.io/library/${familiar}` : `docker.io/${familiar}`;
}

/** The familiar form of the reference as given: no `latest` added (what dockerd's tag events name). */
export function familiarAsGiven(reference: ImageReference): string {
  return `${reference.repository}${reference.tag === undefined ? '' : `:${reference.tag}`}${reference.digest === undefined ? '' : `@${reference.digest}`}`;
}

/** The reference `text` names; a malformed one is refused with dockerd's words (its ParseNormalizedNamed). */
export function checkedImageReference(text: string): ImageReference {
  if (/^[a-f0-9]{64}$/.test(text)) throw new InvalidParameterError(`invalid repository name (${text}), cannot specify 64-byte hexadecimal strings`);
  // the name past the registry, up to the tag, must be lower case, whatever else is wrong
  const slash = text.indexOf('/');
  const remainder = slash >= 0 && /[.:]|^localhost$/.test(text.slice(0, slash)) ? text.slice(slash + 1) : text;
  const remoteName = remainder.split(':')[0] ?? '';
  if (remoteName.toLowerCase() !== remoteName) throw new InvalidParameterError('invalid reference format: repository name must be lowercase');
  const reference = parseImageReference(text);
  if (reference === undefined) throw new InvalidParameterError(text === '' ? 'repository name must have at least one component' : 'invalid reference format');
  if (reference.repository.length > NAME_MAX_LENGTH) throw new InvalidParameterError(`repository name must not be more than ${NAME_MAX_LENGTH} characters`);
  return reference;
}

/** A tag as dockerd's reference.WithTag takes it. */
export function checkedTag(tag: string): string {
  if (!TAG.test(tag)) throw new InvalidParameterError('invalid tag format');
  return tag;
}
