/**
 * Image names as the engine reads them: `busybox` is `busybox:latest`, and the default registry and
 * the `library/` namespace are implied, so `docker.io/library/busybox` names the same image.
 */
export interface ImageReference {
  /** familiar repository name: `busybox`, `alice/app`, `registry.test:5000/app` */
  repository: string;
  tag?: string;
  digest?: string;
}

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
