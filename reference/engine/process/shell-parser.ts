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
  type CommandLine,
  type Pipeline,
  type Redirection,
  type RedirectionOperator,
  type SimpleCommand,
  type Word,
} from './shell-syntax.ts';

const COMPOUND_KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'case', 'esac', 'while', 'until', 'for', '{', '}', 'function', 'select']);
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
    const command = this.simpleCommand();
    const after = this.lexer.peek();
    if (after.kind === 'operator' && after.operator === '|') throw new UnsupportedSyntaxError('a pipe (|)');
    return { negated, command };
  }

  private simpleCommand(): SimpleCommand {
    const command: SimpleCommand = { assignments: [], words: [], redirections: [], line: this.lexer.peek().line };
    for (;;) {
      const token = this.lexer.peek();
      if (token.kind === 'word') {
        this.lexer.next();
        if (command.words.length === 0) {
          const keyword = COMPOUND_KEYWORDS.has(token.word.source) && isPlain(token.word, token.word.source);
          if (keyword) throw new UnsupportedSyntaxError(`the '${token.word.source}' compound command`);
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

  private unexpected(token: Token): ShellSyntaxError {
    return new ShellSyntaxError(`unexpected ${describeToken(token)}`, token.kind === 'end');
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
