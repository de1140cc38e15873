/**
 * The JSON (exec) form of an instruction's arguments, as buildkit's parser reads it (parseJSON,
 * parseMaybeJSON): text that starts with `[` and whose first JSON value is an array of strings is
 * that array (what follows the value is not read, as Go's json.Decoder leaves it); an array with
 * anything but strings is an error of the whole file; any other text is the shell form.
 */
import { BuildfileSyntaxError } from './buildfile-errors.ts';

/** A command: argv as given (JSON form), or one script for the shell (shell form). */
export interface CommandLine {
  words: string[];
  /** shell form: `words` is the script, to run through the config's shell */
  shell: boolean;
}

const NOT_STRING_ARRAY = 'when using JSON array syntax, arrays must be comprised of strings only';

/** RUN, CMD, ENTRYPOINT, HEALTHCHECK CMD: a JSON array of strings, else the rest of the line for the shell. */
export function commandLine(args: string): CommandLine {
  const rest = args.trim();
  const json = jsonStrings(rest);
  if (json !== undefined) return { words: json, shell: false };
  // an empty shell form is the shell alone: `CMD` gives ["/bin/sh", "-c"]
  return { words: rest === '' ? [] : [rest], shell: true };
}

/** The strings of a JSON array; undefined when the text is no JSON array. */
export function jsonStrings(text: string): string[] | undefined {
  const value = text.startsWith('[') ? firstJsonValue(text) : undefined;
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  if (!parsed.every((item) => typeof item === 'string')) throw new BuildfileSyntaxError(NOT_STRING_ARRAY);
  return parsed as string[];
}

/** The text of the JSON value `text` starts with, up to its closing bracket; undefined when it never closes. */
function firstJsonValue(text: string): string | undefined {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '[' || char === '{') depth++;
    else if ((char === ']' || char === '}') && --depth === 0) return text.slice(0, index + 1);
  }
  return undefined;
}
