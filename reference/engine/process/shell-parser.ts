/**
 * Builds command lines from the lexer's tokens, one line at a time (see ShellLexer for why). Error
 * messages are ash's (`syntax error: unexpected ";"`).
 */
import { describeToken, ShellLexer, type Token } from './shell-lexer.ts';
import {
  ShellSyntaxError,
  UnsupportedSyntaxError,
  type AndOrList,
  type Assignment,
  type Command,
  type CommandLine,
  type CommandList,
  type CompoundCommand,
  type Pipeline,
  type Redirection,
  type RedirectionOperator,
  type SimpleCommand,
  type Word,
} from './shell-syntax.ts';

/** Reserved words that only continue or close a compound command: where a command starts, they are a syntax error. */
const CLOSING_WORDS = new Set(['then', 'else', 'elif', 'fi', 'do', 'done', '}']);
const UNSUPPORTED_KEYWORDS = new Set(['case', 'esac', 'function', 'select']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const REDIRECTIONS = new Set<string>(['>', '>>', '>|', '<', '>&', '<&']);
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;

export class ShellParser {
  private readonly lexer: ShellLexer;

  constructor(source: string) {
    this.lexer = new ShellLexer(source);
  }

  /** The next line's commands; undefined at the end of the source. */
  nextCommandLine(): CommandLine | undefined {
    this.skipNewlines();
    if (this.lexer.peek().kind === 'end') return undefined;
    const items: CommandLine = [];
    for (;;) {
      const andOr = this.andOrList();
      const token = this.lexer.peek();
      if (token.kind === 'operator' && (token.operator === ';' || token.operator === '&')) {
        this.lexer.next();
        items.push({ andOr, background: token.operator === '&' });
        const after = this.lexer.peek();
        if (after.kind === 'newline') {
          this.lexer.next();
          return items;
        }
        if (after.kind === 'end') return items;
        continue;
      }
      items.push({ andOr, background: false });
      if (token.kind === 'newline') {
        this.lexer.next();
        return items;
      }
      if (token.kind === 'end') return items;
      throw this.unexpected(token);
    }
  }

  /** Whether only blank lines and comments remain: the line just read is the script's last. */
  atEnd(): boolean {
    this.skipNewlines();
    return this.lexer.peek().kind === 'end';
  }

  private skipNewlines(): void {
    while (this.lexer.peek().kind === 'newline') this.lexer.next();
  }

  private andOrList(): AndOrList {
    const list: AndOrList = { first: this.pipeline(), rest: [] };
    for (;;) {
      const token = this.lexer.peek();
      if (token.kind !== 'operator' || (token.operator !== '&&' && token.operator !== '||')) return list;
      this.lexer.next();
      this.skipNewlines(); // a line may end after && or ||
      list.rest.push({ operator: token.operator, pipeline: this.pipeline() });
    }
  }

  private pipeline(): Pipeline {
    let negated = false;
    const token = this.lexer.peek();
    if (token.kind === 'word' && isPlain(token.word, '!')) {
      this.lexer.next();
      negated = true;
    }
    const commands = [this.command()];
    for (let after = this.lexer.peek(); after.kind === 'operator' && after.operator === '|'; after = this.lexer.peek()) {
      this.lexer.next();
      this.skipNewlines(); // a line may end after |
      commands.push(this.command());
    }
    return { negated, commands };
  }

  private command(): Command {
    const token = this.lexer.peek();
    const keyword = token.kind === 'word' && isPlain(token.word, token.word.source) ? token.word.source : undefined;
    switch (keyword) {
      case 'while':
      case 'until':
        return this.loop(keyword === 'until');
      case 'for':
        return this.forCommand();
      case 'if':
        return this.ifCommand();
      case '{': {
        const line = this.lexer.next().line;
        const body = this.compoundList(['}']);
        this.reservedWord('}');
        return { kind: 'group', body, redirections: this.trailingRedirections(), line };
      }
    }
    if (keyword !== undefined && CLOSING_WORDS.has(keyword)) throw this.unexpected(token);
    if (keyword !== undefined && UNSUPPORTED_KEYWORDS.has(keyword)) throw new UnsupportedSyntaxError(`the '${keyword}' compound command`);
    return this.simpleCommand();
  }

  /** `while|until LIST; do LIST; done [REDIRECTIONS]` */
  private loop(until: boolean): CompoundCommand {
    const line = this.lexer.next().line;
    const condition = this.compoundList(['do']);
    this.reservedWord('do');
    const body = this.compoundList(['done']);
    this.reservedWord('done');
    return { kind: 'loop', until, condition, body, redirections: this.trailingRedirections(), line };
  }

  /** `for NAME [in WORDS]; do LIST; done [REDIRECTIONS]` */
  private forCommand(): CompoundCommand {
    const line = this.lexer.next().line;
    const nameToken = this.lexer.next();
    if (nameToken.kind !== 'word' || !NAME.test(nameToken.word.source)) {
      if (nameToken.kind === 'word') throw new ShellSyntaxError(`bad for loop variable`);
      throw this.unexpected(nameToken);
    }
    this.skipNewlines();
    let words: Word[] | undefined;
    const next = this.lexer.peek();
    if (next.kind === 'word' && isPlain(next.word, 'in')) {
      this.lexer.next();
      words = [];
      for (let token = this.lexer.peek(); token.kind === 'word'; token = this.lexer.peek()) words.push((this.lexer.next() as { word: Word }).word);
      this.listEnd();
    } else if (next.kind === 'operator' && next.operator === ';') this.lexer.next();
    this.skipNewlines();
    this.reservedWord('do');
    const body = this.compoundList(['done']);
    this.reservedWord('done');
    return { kind: 'for', name: nameToken.word.source, words, body, redirections: this.trailingRedirections(), line };
  }

  /** `if LIST; then LIST; [elif LIST; then LIST;]... [else LIST;] fi [REDIRECTIONS]` */
  private ifCommand(): CompoundCommand {
    const line = this.lexer.next().line;
    const branches: Array<{ condition: CommandList; body: CommandList }> = [];
    let otherwise: CommandList | undefined;
    for (;;) {
      const condition = this.compoundList(['then']);
      this.reservedWord('then');
      branches.push({ condition, body: this.compoundList(['elif', 'else', 'fi']) });
      const closing = this.lexer.next() as { word: Word };
      if (isPlain(closing.word, 'elif')) continue;
      if (isPlain(closing.word, 'else')) {
        otherwise = this.compoundList(['fi']);
        this.reservedWord('fi');
      }
      return { kind: 'if', branches, otherwise, redirections: this.trailingRedirections(), line };
    }
  }

  /** The commands up to one of `terminators` (a reserved word where a command would start), over any number of lines. */
  private compoundList(terminators: readonly string[]): CommandList {
    const items: CommandList = [];
    for (;;) {
      this.skipNewlines();
      const token = this.lexer.peek();
      if (token.kind === 'word' && terminators.some((word) => isPlain(token.word, word))) {
        if (items.length === 0) throw this.unexpected(token);
        return items;
      }
      if (token.kind === 'end') throw this.unexpected(token, terminators[terminators.length - 1]);
      const andOr = this.andOrList();
      const after = this.lexer.peek();
      if (after.kind === 'operator' && (after.operator === ';' || after.operator === '&')) this.lexer.next();
      else if (after.kind !== 'newline') throw this.unexpected(after, terminators[terminators.length - 1]);
      items.push({ andOr, background: after.kind === 'operator' && after.operator === '&' });
    }
  }

  /** The `;` or newline that ends a `for` word list. */
  private listEnd(): void {
    const token = this.lexer.next();
    if (token.kind === 'newline' || (token.kind === 'operator' && token.operator === ';')) return;
    throw this.unexpected(token);
  }

  private reservedWord(word: string): void {
    const token = this.lexer.next();
    if (token.kind !== 'word' || !isPlain(token.word, word)) throw this.unexpected(token, word);
  }

  private trailingRedirections(): Redirection[] {
    const redirections: Redirection[] = [];
    for (let token = this.lexer.peek(); token.kind === 'operator' && REDIRECTIONS.has(token.operator); token = this.lexer.peek()) {
      this.lexer.next();
      redirections.push(this.redirection(token.operator as RedirectionOperator, token.fd));
    }
    return redirections;
  }

  private simpleCommand(): SimpleCommand {
    const command: SimpleCommand = { kind: 'simple', assignments: [], words: [], redirections: [], line: this.lexer.peek().line };
    for (;;) {
      const token = this.lexer.peek();
      if (token.kind === 'word') {
        this.lexer.next();
        if (command.words.length === 0) {
          const assignment = asAssignment(token.word);
          if (assignment) {
            command.assignments.push(assignment);
            continue;
          }
        }
        command.words.push(token.word);
      } else if (token.kind === 'operator' && REDIRECTIONS.has(token.operator)) {
        this.lexer.next();
        command.redirections.push(this.redirection(token.operator as RedirectionOperator, token.fd));
      } else if (token.kind === 'operator' && (token.operator === '<<' || token.operator === '<<-')) {
        throw new UnsupportedSyntaxError('a here-document (<<)');
      } else if (token.kind === 'operator' && token.operator === '(' && command.assignments.length === 0 && command.words.length <= 1) {
        throw new UnsupportedSyntaxError(command.words.length === 0 ? 'a subshell ( … )' : 'a function definition');
      } else break;
    }
    if (command.words.length === 0 && command.assignments.length === 0 && command.redirections.length === 0) {
      throw this.unexpected(this.lexer.peek());
    }
    return command;
  }

  private redirection(operator: RedirectionOperator, fd: number | undefined): Redirection {
    const target = this.lexer.next();
    if (target.kind !== 'word') throw this.unexpected(target);
    if ((operator === '>&' || operator === '<&') && !/^\d$/.test(target.word.source)) {
      if (target.word.source === '-') throw new UnsupportedSyntaxError('closing a descriptor (>&-)');
      throw new ShellSyntaxError('Bad fd number');
    }
    return { fd: fd ?? (operator.startsWith('<') ? 0 : 1), operator, target: target.word };
  }

  /** ash's words: `unexpected "done"`, `unexpected end of file (expecting "fi")` */
  private unexpected(token: Token, expecting?: string): ShellSyntaxError {
    const wanted = expecting === undefined ? '' : ` (expecting "${expecting}")`;
    return new ShellSyntaxError(`unexpected ${describeToken(token)}${wanted}`, token.kind === 'end');
  }
}

/** A word written as `text` with no quoting at all. */
function isPlain(word: Word, text: string): boolean {
  const only = word.parts[0];
  return word.parts.length === 1 && only?.kind === 'text' && !only.quoted && only.text === text;
}

function asAssignment(word: Word): Assignment | undefined {
  const first = word.parts[0];
  if (first?.kind !== 'text' || first.quoted) return undefined;
  const match = ASSIGNMENT.exec(first.text);
  if (!match) return undefined;
  const name = match[1] as string;
  const rest = first.text.slice(name.length + 1);
  return { name, value: [...(rest ? [{ kind: 'text' as const, text: rest, quoted: false }] : []), ...word.parts.slice(1)] };
}
