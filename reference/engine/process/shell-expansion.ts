/**
 * Word expansion: parameters (`$X`, `${X}`, `${X:-word}`, `$?`, `"$@"`…) and command substitutions
 * (run by the shell beforehand, see {@link commandSubstitutions}), then field splitting of unquoted
 * expansion results on IFS whitespace, then pathname expansion of unquoted `* ? [`, then quote
 * removal. Arithmetic never gets here (the lexer refuses it).
 */
import type { WordPart, Word } from './shell-syntax.ts';

export interface ExpansionScope {
  /** a variable or special parameter (`?`, `$`, `!`, `#`, `0`, `1`…); undefined when unset */
  lookup(name: string): string | undefined;
  positionalParameters(): readonly string[];
  assign(name: string, value: string): void;
  /** `~` */
  home(): string | undefined;
  /** matches of a pathname pattern (quoted characters escaped with `\`), sorted; none: empty */
  glob(pattern: string): string[];
  /** the output of a command substitution the shell has run for the command being expanded */
  commandOutput(part: CommandPart): string;
}

type ParameterPart = Extract<WordPart, { kind: 'parameter' }>;
export type CommandPart = Extract<WordPart, { kind: 'command' }>;

/** The command substitutions in some words, operands included, in the order the shell runs them. */
export function commandSubstitutions(parts: readonly WordPart[]): CommandPart[] {
  return parts.flatMap((part) => (part.kind === 'command' ? [part] : part.kind === 'parameter' ? commandSubstitutions(part.operand ?? []) : []));
}

/** `${X?message}` of an unset X: the shell reports it and gives up the command. */
export class ParameterNotSetError extends Error {
  constructor(
    readonly parameter: string,
    detail: string,
  ) {
    super(`${parameter}: ${detail}`);
    this.name = 'ParameterNotSetError';
  }
}

const IFS_WHITESPACE = /[ \t\n]/;
const GLOB_CHARS = /[*?[]/;

interface Field {
  /** the field's text after quote removal */
  text: string;
  /** the text with quoted characters escaped, for pathname matching */
  pattern: string;
  /** an unquoted `*`, `?` or `[` is in it */
  globbable: boolean;
}

/** Accumulates fields: quoted text always makes a field exist, split text may end one. */
class FieldBuilder {
  readonly fields: Field[] = [];
  private current: Field | undefined;

  /** Text that stays in one piece; `quoted` text is never a pattern. */
  text(text: string, quoted: boolean): void {
    const field = this.open();
    field.text += text;
    if (quoted) field.pattern += text.replace(/[\\*?[\]]/g, '\\$&');
    else {
      field.pattern += text;
      if (GLOB_CHARS.test(text)) field.globbable = true;
    }
  }

  /** An unquoted expansion result: IFS whitespace separates fields and vanishes. */
  split(text: string): void {
    let word = '';
    for (const char of text) {
      if (IFS_WHITESPACE.test(char)) {
        if (word) this.text(word, false);
        word = '';
        this.breakField();
      } else word += char;
    }
    if (word) this.text(word, false);
  }

  breakField(): void {
    if (this.current) this.fields.push(this.current);
    this.current = undefined;
  }

  /** Takes back a field that only its opening quote made (`"$@"` with no parameters is no field at all). */
  dropEmptyField(): void {
    if (this.current?.text === '') this.current = undefined;
  }

  finish(): Field[] {
    this.breakField();
    return this.fields;
  }

  private open(): Field {
    this.current ??= { text: '', pattern: '', globbable: false };
    return this.current;
  }
}

/** A command's words as the fields it runs with. */
export function expandWords(words: readonly Word[], scope: ExpansionScope): string[] {
  const result: string[] = [];
  for (const word of words) {
    const builder = new FieldBuilder();
    emitParts(tildeExpanded(word.parts, scope), builder, scope, false);
    for (const field of builder.finish()) {
      const matches = field.globbable ? scope.glob(field.pattern) : [];
      if (matches.length > 0) result.push(...matches);
      else result.push(field.text);
    }
  }
  return result;
}

/** A word expanded to one string, without splitting or globbing (assignments, redirection targets). */
export function expandToText(parts: readonly WordPart[], scope: ExpansionScope): string {
  let text = '';
  for (const part of tildeExpanded(parts, scope)) {
    if (part.kind === 'text') text += part.text;
    else if (part.kind === 'command') text += scope.commandOutput(part);
    else text += parameterValue(part, scope, (operand) => expandToText(operand, scope)).join(' ');
  }
  return text;
}

function emitParts(parts: readonly WordPart[], builder: FieldBuilder, scope: ExpansionScope, inUnquotedOperand: boolean): void {
  for (const part of parts) {
    if (part.kind === 'text') {
      // the literal text of an unquoted ${X:-a b} operand is split like an expansion result
      if (inUnquotedOperand && !part.quoted) builder.split(part.text);
      else builder.text(part.text, part.quoted);
      continue;
    }
    if (part.kind === 'command') {
      const output = scope.commandOutput(part);
      if (part.quoted) builder.text(output, true);
      else builder.split(output);
      continue;
    }
    if (part.name === '@' && part.quoted && !part.operator && !part.length) {
      // "$@": one field per positional parameter, none when there are none
      const positional = scope.positionalParameters();
      if (positional.length === 0) builder.dropEmptyField();
      positional.forEach((value, index) => {
        if (index > 0) builder.breakField();
        builder.text(value, true);
      });
      continue;
    }
    if (part.operator && chosenOperand(part, scope) !== undefined) {
      emitParts(part.operand ?? [], builder, scope, !part.quoted);
      continue;
    }
    const values = parameterValue(part, scope, () => '');
    values.forEach((value, index) => {
      if (index > 0 && !part.quoted) builder.breakField();
      if (part.quoted) builder.text(value, true);
      else builder.split(value);
    });
  }
}

/**
 * The operand that replaces the parameter's value, if the operator chooses it: `-` when unset, `:-`
 * when unset or empty, `+`/`:+` the other way round. `=` also assigns; `?` fails.
 */
function chosenOperand(part: ParameterPart, scope: ExpansionScope): readonly WordPart[] | undefined {
  const value = rawValue(part.name, scope);
  const missing = part.operator?.startsWith(':') ? value === undefined || value === '' : value === undefined;
  const operand = part.operand ?? [];
  switch (part.operator) {
    case '-':
    case ':-':
      return missing ? operand : undefined;
    case '+':
    case ':+':
      return missing ? undefined : operand;
    case '=':
    case ':=':
      if (missing) scope.assign(part.name, expandToText(operand, scope));
      return undefined;
    case '?':
    case ':?':
      if (missing) {
        const message = expandToText(operand, scope);
        throw new ParameterNotSetError(part.name, message || (value === undefined ? 'parameter not set' : 'parameter null or not set'));
      }
      return undefined;
    default:
      return undefined;
  }
}

/** The values a parameter expands to: several for `$@`/`$*`, one otherwise. */
function parameterValue(
  part: ParameterPart,
  scope: ExpansionScope,
  operandText: (operand: readonly WordPart[]) => string,
): string[] {
  if (part.operator) {
    const operand = chosenOperand(part, scope);
    if (operand !== undefined) return [operandText(operand)];
  }
  if (part.name === '@' || part.name === '*') {
    const positional = [...scope.positionalParameters()];
    if (part.length) return [String(positional.length)];
    return part.quoted && part.name === '*' ? [positional.join(' ')] : positional;
  }
  const value = rawValue(part.name, scope) ?? '';
  return [part.length ? String([...value].length) : value];
}

function rawValue(name: string, scope: ExpansionScope): string | undefined {
  if (name === '@' || name === '*') return scope.positionalParameters().join(' ');
  return scope.lookup(name);
}

/** `~` and `~/…` at the start of an unquoted word become HOME. */
function tildeExpanded(parts: readonly WordPart[], scope: ExpansionScope): readonly WordPart[] {
  const first = parts[0];
  if (first?.kind !== 'text' || first.quoted || !first.text.startsWith('~')) return parts;
  const rest = first.text.slice(1);
  const home = scope.home();
  if (home === undefined || (rest !== '' && !rest.startsWith('/')) || (rest === '' && parts.length > 1 && !startsWithSlash(parts[1]))) return parts;
  return [{ kind: 'text', text: home, quoted: true }, ...(rest ? [{ kind: 'text' as const, text: rest, quoted: false }] : []), ...parts.slice(1)];
}

function startsWithSlash(part: WordPart | undefined): boolean {
  return part?.kind === 'text' && part.text.startsWith('/');
}
