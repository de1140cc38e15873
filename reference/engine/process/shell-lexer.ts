/**
 * Splits shell source into words and operators, one token at a time, as ash does: quoting,
 * backslashes, line continuations, comments, `$NAME`/`${…}` and `$(…)`/`` `…` `` inside words,
 * `2>`-style fd numbers.
 * Being pulled token by token lets the shell run one line before it has read the next, so a syntax
 * error on line 3 comes after lines 1 and 2 have run.
 */
import {
  ShellSyntaxError,
  UnsupportedSyntaxError,
  type ParameterOperator,
  type Word,
  type WordPart,
} from './shell-syntax.ts';

export type Operator = ';' | '&' | '&&' | '||' | '|' | '(' | ')' | ';;' | '<' | '>' | '>>' | '>&' | '<&' | '>|' | '<>' | '<<' | '<<-';

export type Token =
  | { kind: 'word'; word: Word; line: number }
  | { kind: 'operator'; operator: Operator; fd?: number; line: number }
  | { kind: 'newline'; line: number }
  | { kind: 'end'; line: number };

// longest first, so that `&&` is not read as two `&`
const OPERATORS: readonly Operator[] = ['<<-', '&&', '||', ';;', '>>', '>&', '<&', '>|', '<>', '<<', ';', '&', '|', '(', ')', '<', '>'];
const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);
const SPECIAL_PARAMETERS = new Set(['?', '$', '!', '#', '@', '*', '-']);
const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;

export function describeToken(token: Token): string {
  switch (token.kind) {
    case 'word':
      return `"${token.word.source}"`;
    case 'operator':
      return `"${token.operator}"`;
    case 'newline':
      return 'newline';
    case 'end':
      return 'end of file';
  }
}

export class ShellLexer {
  private position = 0;
  private currentLine = 0;
  private lookahead: Token | undefined;

  constructor(private readonly source: string) {}

  peek(): Token {
    if (this.lookahead === undefined) {
      // a token that fails to scan fails the same way when asked for again
      const position = this.position;
      const line = this.currentLine;
      try {
        this.lookahead = this.scan();
      } catch (error) {
        this.position = position;
        this.currentLine = line;
        throw error;
      }
    }
    return this.lookahead;
  }

  next(): Token {
    const token = this.peek();
    this.lookahead = undefined;
    return token;
  }

  private scan(): Token {
    this.skipBlanksAndComments();
    const line = this.currentLine;
    const char = this.source[this.position];
    if (char === undefined) return { kind: 'end', line };
    if (char === '\n') {
      this.position++;
      this.currentLine++;
      return { kind: 'newline', line };
    }
    const fdMatch = /^(\d+)(?=[<>])/.exec(this.source.slice(this.position, this.position + 12));
    if (fdMatch) {
      this.position += (fdMatch[1] as string).length;
      const operator = this.scanOperator();
      return { kind: 'operator', operator: operator as Operator, fd: Number(fdMatch[1]), line };
    }
    const operator = this.scanOperator();
    if (operator) return { kind: 'operator', operator, line };
    return { kind: 'word', word: this.scanWord(), line };
  }

  private skipBlanksAndComments(): void {
    for (;;) {
      const char = this.source[this.position];
      if (char === ' ' || char === '\t') this.position++;
      else if (char === '\\' && this.source[this.position + 1] === '\n') {
        this.position += 2;
        this.currentLine++;
      } else if (char === '#') {
        while (this.position < this.source.length && this.source[this.position] !== '\n') this.position++;
      } else return;
    }
  }

  private scanOperator(): Operator | undefined {
    const operator = OPERATORS.find((candidate) => this.source.startsWith(candidate, this.position));
    if (operator) this.position += operator.length;
    return operator;
  }

  private scanWord(): Word {
    const start = this.position;
    const parts: WordPart[] = [];
    for (;;) {
      const char = this.source[this.position];
      if (char === undefined || WORD_END.has(char)) break;
      if (char === '\\') {
        const escaped = this.source[this.position + 1];
        this.position += 2;
        if (escaped === '\n') this.currentLine++;
        else if (escaped === undefined) {
          this.position--;
          parts.push({ kind: 'text', text: '\\', quoted: false });
        } else parts.push({ kind: 'text', text: escaped, quoted: true });
      } else if (char === "'") {
        const close = this.source.indexOf("'", this.position + 1);
        if (close < 0) throw new ShellSyntaxError('unterminated quoted string', true);
        const text = this.source.slice(this.position + 1, close);
        this.countLines(text);
        parts.push({ kind: 'text', text, quoted: true });
        this.position = close + 1;
      } else if (char === '"') {
        parts.push({ kind: 'text', text: '', quoted: true }, ...this.scanDoubleQuoted());
      } else if (char === '$') {
        parts.push(this.scanDollar(false));
      } else if (char === '`') {
        parts.push(this.scanBackquoted(false));
      } else {
        parts.push({ kind: 'text', text: char, quoted: false });
        this.position++;
      }
    }
    return { parts: mergeTexts(parts), source: this.source.slice(start, this.position) };
  }

  /** From an opening `"` to its closing one. */
  private scanDoubleQuoted(): WordPart[] {
    const parts: WordPart[] = [];
    this.position++;
    for (;;) {
      const char = this.source[this.position];
      if (char === undefined) throw new ShellSyntaxError('unterminated quoted string', true);
      if (char === '"') {
        this.position++;
        return parts;
      }
      if (char === '\\') {
        const escaped = this.source[this.position + 1];
        if (escaped === '\n') {
          this.position += 2;
          this.currentLine++;
        } else if (escaped !== undefined && '$`"\\'.includes(escaped)) {
          parts.push({ kind: 'text', text: escaped, quoted: true });
          this.position += 2;
        } else {
          parts.push({ kind: 'text', text: '\\', quoted: true });
          this.position++;
        }
      } else if (char === '$') {
        parts.push(this.scanDollar(true));
      } else if (char === '`') {
        parts.push(this.scanBackquoted(true));
      } else {
        if (char === '\n') this.currentLine++;
        parts.push({ kind: 'text', text: char, quoted: true });
        this.position++;
      }
    }
  }

  /** At a `$`: a parameter, or a plain `$` when nothing that names one follows. */
  private scanDollar(quoted: boolean): WordPart {
    const next = this.source[this.position + 1];
    if (next === '{') {
      this.position += 2;
      return this.scanBraced(quoted);
    }
    if (next === '(') {
      if (this.source[this.position + 2] === '(') throw new UnsupportedSyntaxError('arithmetic expansion $((…))');
      return this.scanCommandSubstitution(quoted);
    }
    if (next !== undefined && NAME_START.test(next)) {
      let end = this.position + 2;
      while (end < this.source.length && NAME_CHAR.test(this.source[end] as string)) end++;
      const name = this.source.slice(this.position + 1, end);
      this.position = end;
      return { kind: 'parameter', name, quoted };
    }
    if (next !== undefined && (/\d/.test(next) || SPECIAL_PARAMETERS.has(next))) {
      this.position += 2;
      return { kind: 'parameter', name: next, quoted };
    }
    this.position++;
    return { kind: 'text', text: '$', quoted };
  }

  /** After `${`: NAME, #NAME, NAME followed by an operator and a word, up to the matching `}`. */
  private scanBraced(quoted: boolean): WordPart {
    let length = false;
    if (this.source[this.position] === '#' && this.source[this.position + 1] !== '}') {
      length = true;
      this.position++;
    }
    const name = this.scanParameterName();
    if (name === undefined) {
      if (this.position >= this.source.length) throw new ShellSyntaxError("missing '}'", true);
      throw new ShellSyntaxError('bad substitution');
    }
    const char = this.source[this.position];
    if (char === '}') {
      this.position++;
      return { kind: 'parameter', name, quoted, length };
    }
    if (char === undefined) throw new ShellSyntaxError("missing '}'", true);
    if (length) throw new ShellSyntaxError('bad substitution');
    let operator: ParameterOperator | undefined;
    if (char === ':' && '-=+?'.includes(this.source[this.position + 1] ?? '')) {
      operator = `:${this.source[this.position + 1]}` as ParameterOperator;
    } else if ('-=+?'.includes(char)) {
      operator = char as ParameterOperator;
    } else if ('%#/:'.includes(char)) {
      throw new UnsupportedSyntaxError(`the \${NAME${char}…} expansion`);
    } else throw new ShellSyntaxError('bad substitution');
    this.position += operator.length;
    return { kind: 'parameter', name, quoted, operator, operand: this.scanOperand(quoted) };
  }

  private scanParameterName(): string | undefined {
    const char = this.source[this.position];
    if (char === undefined) return undefined;
    if (NAME_START.test(char)) {
      let end = this.position + 1;
      while (end < this.source.length && NAME_CHAR.test(this.source[end] as string)) end++;
      const name = this.source.slice(this.position, end);
      this.position = end;
      return name;
    }
    if (/\d/.test(char)) {
      let end = this.position + 1;
      while (end < this.source.length && /\d/.test(this.source[end] as string)) end++;
      const name = this.source.slice(this.position, end);
      this.position = end;
      return name;
    }
    if (SPECIAL_PARAMETERS.has(char)) {
      this.position++;
      return char;
    }
    return undefined;
  }

  /** The word of `${NAME:-word}`, up to the `}` that closes the expansion. */
  private scanOperand(quoted: boolean): WordPart[] {
    const parts: WordPart[] = [];
    for (;;) {
      const char = this.source[this.position];
      if (char === undefined) throw new ShellSyntaxError("missing '}'", true);
      if (char === '}') {
        this.position++;
        return mergeTexts(parts);
      }
      if (char === '\\') {
        const escaped = this.source[this.position + 1];
        if (escaped === undefined) throw new ShellSyntaxError("missing '}'", true);
        parts.push({ kind: 'text', text: escaped, quoted: true });
        this.position += 2;
      } else if (char === "'" && !quoted) {
        const close = this.source.indexOf("'", this.position + 1);
        if (close < 0) throw new ShellSyntaxError('unterminated quoted string', true);
        parts.push({ kind: 'text', text: this.source.slice(this.position + 1, close), quoted: true });
        this.position = close + 1;
      } else if (char === '"') {
        parts.push({ kind: 'text', text: '', quoted: true }, ...this.scanDoubleQuoted());
      } else if (char === '$') {
        parts.push(this.scanDollar(quoted));
      } else if (char === '`') {
        throw new UnsupportedSyntaxError('command substitution `…`');
      } else {
        if (char === '\n') this.currentLine++;
        parts.push({ kind: 'text', text: char, quoted });
        this.position++;
      }
    }
  }

  /** At `$(`: the commands up to the matching `)`, skipping quoted text and comments. */
  private scanCommandSubstitution(quoted: boolean): WordPart {
    const start = this.position + 2;
    let depth = 1;
    let index = start;
    for (; depth > 0; index++) {
      const char = this.source[index];
      if (char === undefined) throw new ShellSyntaxError('unexpected end of file (expecting ")")', true);
      if (char === '\\') index++;
      else if (char === "'") {
        index = this.source.indexOf("'", index + 1);
        if (index < 0) throw new ShellSyntaxError('unterminated quoted string', true);
      } else if (char === '"') {
        for (index++; this.source[index] !== '"'; index++) {
          if (index >= this.source.length) throw new ShellSyntaxError('unterminated quoted string', true);
          if (this.source[index] === '\\') index++;
        }
      } else if (char === '#' && (index === start || /[\s;&|(]/.test(this.source[index - 1] as string))) {
        while (index + 1 < this.source.length && this.source[index + 1] !== '\n') index++;
      } else if (char === '(') depth++;
      else if (char === ')') depth--;
    }
    const source = this.source.slice(start, index - 1);
    this.countLines(source);
    this.position = index;
    return { kind: 'command', source, quoted };
  }

  /** At a backquote: the commands up to the next unescaped one; `\\`, `` \` `` and `\$` (and `\"` inside double quotes) lose their backslash. */
  private scanBackquoted(quoted: boolean): WordPart {
    let source = '';
    for (let index = this.position + 1; ; index++) {
      const char = this.source[index];
      if (char === undefined) throw new ShellSyntaxError('unterminated quoted string', true);
      if (char === '`') {
        this.countLines(source);
        this.position = index + 1;
        return { kind: 'command', source, quoted };
      }
      const escaped = this.source[index + 1];
      if (char === '\\' && escaped !== undefined && ('\\`$'.includes(escaped) || (quoted && escaped === '"'))) {
        source += escaped;
        index++;
      } else source += char;
    }
  }

  private countLines(text: string): void {
    for (const char of text) if (char === '\n') this.currentLine++;
  }
}

/** Joins neighbouring texts of the same quoting; keeps an empty quoted text that stands alone (`""`). */
function mergeTexts(parts: WordPart[]): WordPart[] {
  const merged: WordPart[] = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    if (part.kind === 'text' && last?.kind === 'text' && last.quoted === part.quoted) {
      merged[merged.length - 1] = { ...last, text: last.text + part.text };
    } else merged.push(part);
  }
  return merged;
}
