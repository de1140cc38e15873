/**
 * Variable substitution in build file words, as dockerd's shell lexer does it (buildkit
 * frontend/dockerfile/shell/lex.go): `$VAR`, `${VAR}`, `${VAR:-word}`, `${VAR:+word}`,
 * `${VAR:?word}`; single quotes keep everything literal, double quotes keep all but `$` and the
 * escapes of `"`, `$` and the escape token; the escape token outside quotes takes the next character
 * literally. The quotes go: `"a b"` is `a b`. An unset variable is empty. `processWords` also splits
 * into words at whitespace that is neither quoted nor escaped (EXPOSE's expansion). A build's words
 * and a commit's or an import's `changes` are substituted here alike.
 */
import { InvalidParameterError } from '../model/common/errors.ts';
import type { EscapeToken } from './buildfile-parser.ts';
import { goQuote } from './go-format.ts';

export class SubstitutionError extends InvalidParameterError {
  override name = 'SubstitutionError';
}

/** `word` with its variables substituted and its quotes removed, as one word. */
export function processWord(word: string, env: readonly string[], escape: EscapeToken): string {
  return processed(word, env, escape).text;
}

/** `word` substituted, then split into words. */
export function processWords(word: string, env: readonly string[], escape: EscapeToken): string[] {
  return processed(word, env, escape).words;
}

/** The lexer's answer; its errors name the word, as the lexer's `process` wraps them (`failed to process "${A": …`). */
function processed(word: string, env: readonly string[], escape: EscapeToken): { text: string; words: string[] } {
  try {
    return new WordLexer(word, env, escape).process();
  } catch (error) {
    if (error instanceof SubstitutionError) throw new SubstitutionError(`failed to process ${goQuote(word)}: ${error.message}`);
    throw error;
  }
}

/** Builds the words as the lexer goes: quoted and escaped characters never split. */
class WordCollector {
  private word = '';
  private inWord = false;
  readonly words: string[] = [];

  addChar(char: string): void {
    if (/\s/.test(char)) {
      if (this.inWord && this.word.length > 0) {
        this.words.push(this.word);
        this.word = '';
        this.inWord = false;
      }
    } else this.addRawChar(char);
  }

  addRawChar(char: string): void {
    this.word += char;
    this.inWord = true;
  }

  addString(text: string): void {
    for (const char of text) this.addChar(char);
  }

  addRawString(text: string): void {
    this.word += text;
    this.inWord = true;
  }

  finish(): string[] {
    if (this.word.length > 0) {
      this.words.push(this.word);
      this.word = '';
      this.inWord = false;
    }
    return this.words;
  }
}

class WordLexer {
  private readonly chars: string[];
  private position = 0;

  constructor(
    source: string,
    private readonly env: readonly string[],
    private readonly escape: EscapeToken,
  ) {
    this.chars = [...source];
  }

  process(): { text: string; words: string[] } {
    return this.processUntil(undefined);
  }

  private peek(): string | undefined {
    return this.chars[this.position];
  }

  private next(): string | undefined {
    return this.chars[this.position++];
  }

  private processUntil(stop: string | undefined): { text: string; words: string[] } {
    let text = '';
    const words = new WordCollector();
    while (this.peek() !== undefined) {
      const char = this.peek() as string;
      if (stop !== undefined && char === stop) {
        this.next();
        return { text, words: words.finish() };
      }
      if (char === "'" || char === '"' || char === '$') {
        const value = char === "'" ? this.singleQuoted() : char === '"' ? this.doubleQuoted() : this.dollar();
        text += value;
        if (char === '$') words.addString(value);
        else words.addRawString(value);
        continue;
      }
      this.next();
      if (char === this.escape) {
        const escaped = this.next();
        if (escaped === undefined) break;
        words.addRawChar(escaped);
        text += escaped;
      } else {
        words.addChar(char);
        text += char;
      }
    }
    if (stop !== undefined) throw new SubstitutionError(`unexpected end of statement while looking for matching ${stop}`);
    return { text, words: words.finish() };
  }

  private singleQuoted(): string {
    this.next();
    let text = '';
    for (;;) {
      const char = this.next();
      if (char === undefined) throw new SubstitutionError('unexpected end of statement while looking for matching single-quote');
      if (char === "'") return text;
      text += char;
    }
  }

  private doubleQuoted(): string {
    this.next();
    let text = '';
    for (;;) {
      const char = this.peek();
      if (char === undefined) throw new SubstitutionError('unexpected end of statement while looking for matching double-quote');
      if (char === '"') {
        this.next();
        return text;
      }
      if (char === '$') {
        text += this.dollar();
        continue;
      }
      this.next();
      if (char === this.escape) {
        const following = this.peek();
        if (following === undefined) continue;
        if (following === '"' || following === '$' || following === this.escape) {
          text += this.next() as string;
          continue;
        }
      }
      text += char;
    }
  }

  private dollar(): string {
    this.next();
    if (this.peek() !== '{') {
      const name = this.name();
      return name === '' ? '$' : (this.lookup(name) ?? '');
    }
    this.next();
    const first = this.peek();
    if (first === undefined) throw new SubstitutionError("syntax error: missing '}'");
    if (first === '{' || first === '}' || first === ':') throw new SubstitutionError('syntax error: bad substitution');
    const name = this.name();
    const char = this.next();
    if (char === '}') return this.lookup(name) ?? '';
    if (char !== ':') throw new SubstitutionError("missing ':' in substitution");
    const modifier = this.next();
    let word: string;
    try {
      word = this.processUntil('}').text;
    } catch (error) {
      if (this.peek() === undefined) throw new SubstitutionError("syntax error: missing '}'");
      throw error;
    }
    const value = this.lookup(name);
    switch (modifier) {
      case '+':
        return value ? word : '';
      case '-':
        return value ? value : word;
      case '?':
        if (value === undefined) throw new SubstitutionError(`${name}: ${word || 'is not allowed to be unset'}`);
        return value;
      default:
        throw new SubstitutionError(`unsupported modifier (${modifier ?? ''}) in substitution`);
    }
  }

  /** A variable name: letters, digits and `_`, or a run of digits, or one special parameter. */
  private name(): string {
    let name = '';
    for (;;) {
      const char = this.peek();
      if (char === undefined) return name;
      if (name === '' && /\d/.test(char)) {
        while (this.peek() !== undefined && /\d/.test(this.peek() as string)) name += this.next() as string;
        return name;
      }
      if (name === '' && '@*#?-$!0'.includes(char)) return this.next() as string;
      if (!/[\p{L}\p{Nd}_]/u.test(char)) return name;
      name += this.next() as string;
    }
  }

  /** The first `name=value` of the environment for `name`; a bare `name` entry is set and empty. */
  private lookup(name: string): string | undefined {
    for (const entry of this.env) {
      const separator = entry.indexOf('=');
      if (separator < 0) {
        if (entry === name) return '';
      } else if (entry.slice(0, separator) === name) return entry.slice(separator + 1);
    }
    return undefined;
  }
}
