/**
 * Escaping for XML (junit.xml) and HTML (report.html, and the raw HTML Markdown allows). Failure messages quote whatever a target
 * answered, so they may hold markup, ANSI escapes or stray control characters; XML 1.0 forbids most
 * C0 controls outright, so those are written as visible `\u001b` text rather than dropped.
 */

// C0 controls but tab, newline and carriage return; U+FFFE/U+FFFF; lone surrogates.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function visible(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Control characters (and the other code points XML forbids) as visible `\u001b` text; Markdown wants this too. */
export function showControlCharacters(text: string): string {
  return text.replace(FORBIDDEN, visible);
}

/** Text content of an element. */
export function escapeText(text: string): string {
  return showControlCharacters(text).replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** An attribute value: also keeps line breaks and tabs, which attribute normalisation would turn into spaces. */
export function escapeAttribute(text: string): string {
  return escapeText(text).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

/**
 * JSON for a `<script type="application/json">` element: `<` as `\u003c`, so neither `</script` nor
 * `<!--` in a message can end or alter the element; JSON.parse reads it back unchanged.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}
