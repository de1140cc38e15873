/**
 * The syntax tree of the shell language the fixture command contract allows: simple commands with
 * assignments and redirections, `!`, joined by `&&` and `||`, in lists separated by `;`, `&` and
 * newlines. Anything beyond (pipes, subshells, `if`, command substitution…) is refused at parse time
 * with an UnsupportedSyntaxError, never run half-understood.
 */

export type ParameterOperator = '-' | ':-' | '=' | ':=' | '+' | ':+' | '?' | ':?';

export type WordPart =
  | { kind: 'text'; text: string; quoted: boolean }
  | {
      kind: 'parameter';
      /** a name, a digit, or one of `? $ ! # @ * -` */
      name: string;
      quoted: boolean;
      /** `${#NAME}` */
      length?: boolean;
      operator?: ParameterOperator;
      operand?: WordPart[];
    };

export interface Word {
  parts: WordPart[];
  /** the source text, for messages */
  source: string;
}

export type RedirectionOperator = '>' | '>>' | '>|' | '<' | '>&' | '<&';

export interface Redirection {
  fd: number;
  operator: RedirectionOperator;
  target: Word;
}

export interface Assignment {
  name: string;
  value: WordPart[];
}

export interface SimpleCommand {
  assignments: Assignment[];
  words: Word[];
  redirections: Redirection[];
  /** 0-based line of the script it starts on */
  line: number;
}

export interface Pipeline {
  negated: boolean;
  command: SimpleCommand;
}

export interface AndOrList {
  first: Pipeline;
  rest: Array<{ operator: '&&' | '||'; pipeline: Pipeline }>;
}

export interface ListItem {
  andOr: AndOrList;
  background: boolean;
}

/** What the shell reads and runs in one go: the commands up to the end of a line. */
export type CommandLine = ListItem[];

export class ShellSyntaxError extends Error {
  constructor(
    message: string,
    /** the text ended where more was expected: more input may complete it */
    readonly atEndOfInput = false,
  ) {
    super(message);
    this.name = 'ShellSyntaxError';
  }
}

/** Shell syntax busybox understands but the fixture command contract leaves out. */
export class UnsupportedSyntaxError extends Error {
  constructor(readonly construct: string) {
    super(`${construct} is outside the fixture command contract (Shipshape reference)`);
    this.name = 'UnsupportedSyntaxError';
  }
}
