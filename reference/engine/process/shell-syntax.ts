/**
 * The syntax tree of the shell language the reference runs: simple commands with assignments and
 * redirections, pipelines (`a | b`, `!`), joined by `&&` and `||`, in lists separated by `;`, `&`
 * and newlines; the compound commands `while`/`until`, `for`, `if` and `{ …; }`; command substitution `$(…)`
 * and `` `…` ``. The fixture command contract (DESIGN.md) is a part of it: checks use only that part;
 * the rest serves clients' own test suites. Anything beyond (subshells, functions, `case`,
 * arithmetic…) is refused at parse time with an UnsupportedSyntaxError, never run half-understood.
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
    }
  /** `$(…)` or `` `…` ``: the commands' output, trailing newlines removed */
  | { kind: 'command'; source: string; quoted: boolean };

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
  kind: 'simple';
  assignments: Assignment[];
  words: Word[];
  redirections: Redirection[];
  /** 0-based line of the script it starts on */
  line: number;
}

/** `while`/`until CONDITION; do BODY; done` */
export interface LoopCommand {
  kind: 'loop';
  until: boolean;
  condition: CommandList;
  body: CommandList;
  redirections: Redirection[];
  line: number;
}

/** `for NAME in WORDS; do BODY; done`; without `in`, the positional parameters */
export interface ForCommand {
  kind: 'for';
  name: string;
  words: Word[] | undefined;
  body: CommandList;
  redirections: Redirection[];
  line: number;
}

/** `if C; then B; elif C; then B; else B; fi` */
export interface IfCommand {
  kind: 'if';
  branches: Array<{ condition: CommandList; body: CommandList }>;
  otherwise: CommandList | undefined;
  redirections: Redirection[];
  line: number;
}

/** `{ LIST; }` */
export interface GroupCommand {
  kind: 'group';
  body: CommandList;
  redirections: Redirection[];
  line: number;
}

export type CompoundCommand = LoopCommand | ForCommand | IfCommand | GroupCommand;

export type Command = SimpleCommand | CompoundCommand;

export interface Pipeline {
  negated: boolean;
  /** one, or several joined by `|` */
  commands: Command[];
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

/** The commands inside a compound command, over as many lines as they take. */
export type CommandList = ListItem[];

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
