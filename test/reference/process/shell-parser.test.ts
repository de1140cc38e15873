import { describe, expect, test } from 'vitest';
import { ShellParser } from '../../../reference/engine/process/shell-parser.ts';
import { ShellSyntaxError, UnsupportedSyntaxError, type CommandLine, type Pipeline, type SimpleCommand, type Word } from '../../../reference/engine/process/shell-syntax.ts';

function lines(source: string): CommandLine[] {
  const parser = new ShellParser(source);
  const result: CommandLine[] = [];
  for (let line = parser.nextCommandLine(); line !== undefined; line = parser.nextCommandLine()) result.push(line);
  return result;
}

/** The simple command of a pipeline of one. */
function simple(pipeline: Pipeline | undefined): SimpleCommand | undefined {
  const command = pipeline?.commands[0];
  return command?.kind === 'simple' ? command : undefined;
}

/** The words of the commands of a one-line script, as source text. */
function shape(source: string): unknown {
  const [line] = lines(source);
  return line?.map((item) => ({
    background: item.background,
    commands: [item.andOr.first, ...item.andOr.rest.map((rest) => rest.pipeline)].map((pipeline) => simple(pipeline)?.words.map((word: Word) => word.source)),
    operators: item.andOr.rest.map((rest) => rest.operator),
  }));
}

function syntaxError(source: string): string {
  try {
    lines(source);
  } catch (error) {
    if (error instanceof ShellSyntaxError || error instanceof UnsupportedSyntaxError) return error.message;
    throw error;
  }
  throw new Error(`${source} parsed`);
}

describe('ShellParser', () => {
  test('lists, and-or lists and background jobs', () => {
    expect(shape('echo a; true && echo b || echo c & wait')).toEqual([
      { background: false, commands: [['echo', 'a']], operators: [] },
      { background: true, commands: [['true'], ['echo', 'b'], ['echo', 'c']], operators: ['&&', '||'] },
      { background: false, commands: [['wait']], operators: [] },
    ]);
  });

  test('a line per newline, a line may end after && and a trailing ;', () => {
    const parsed = lines('echo a;\n\n# comment\ntrue &&\n  echo b\n');
    expect(parsed).toHaveLength(2);
    expect(simple(parsed[1]?.[0]?.andOr.rest[0]?.pipeline)?.line).toBe(4);
  });

  test('assignments before the command word, redirections anywhere', () => {
    const [line] = lines('A=1 B="x y" echo $A >/tmp/out 2>&1 word');
    const command = simple(line?.[0]?.andOr.first);
    expect(command?.assignments.map((assignment) => assignment.name)).toEqual(['A', 'B']);
    expect(command?.words.map((word) => word.source)).toEqual(['echo', '$A', 'word']);
    expect(command?.redirections.map(({ fd, operator, target }) => [fd, operator, target.source])).toEqual([
      [1, '>', '/tmp/out'],
      [2, '>&', '1'],
    ]);
  });

  test('an assignment after the command word is a word', () => {
    const command = simple(lines('echo A=1')[0]?.[0]?.andOr.first);
    expect(command?.assignments).toEqual([]);
    expect(command?.words.map((word) => word.source)).toEqual(['echo', 'A=1']);
  });

  test('quoting: single quotes are literal, double quotes keep $ expansions, backslash escapes', () => {
    const words = simple(lines(`echo 'a $X' "b $Y" c\\ d ""`)[0]?.[0]?.andOr.first)?.words ?? [];
    expect(words[1]?.parts).toEqual([{ kind: 'text', text: 'a $X', quoted: true }]);
    expect(words[2]?.parts).toEqual([
      { kind: 'text', text: 'b ', quoted: true },
      { kind: 'parameter', name: 'Y', quoted: true },
    ]);
    expect(words[3]?.parts).toEqual([
      { kind: 'text', text: 'c', quoted: false },
      { kind: 'text', text: ' ', quoted: true },
      { kind: 'text', text: 'd', quoted: false },
    ]);
    expect(words[4]?.parts).toEqual([{ kind: 'text', text: '', quoted: true }]);
  });

  test('parameters: $NAME, ${NAME}, ${NAME:-word}, ${#NAME}, $? $$ $! $# $1', () => {
    const words = simple(lines('echo $A ${B} ${C:-d e} ${#D} $? $$ $! $# $1 $')[0]?.[0]?.andOr.first)?.words ?? [];
    expect(words.slice(1).map((word) => word.parts[0])).toEqual([
      { kind: 'parameter', name: 'A', quoted: false },
      { kind: 'parameter', name: 'B', quoted: false, length: false },
      { kind: 'parameter', name: 'C', quoted: false, operator: ':-', operand: [{ kind: 'text', text: 'd e', quoted: false }] },
      { kind: 'parameter', name: 'D', quoted: false, length: true },
      { kind: 'parameter', name: '?', quoted: false },
      { kind: 'parameter', name: '$', quoted: false },
      { kind: 'parameter', name: '!', quoted: false },
      { kind: 'parameter', name: '#', quoted: false },
      { kind: 'parameter', name: '1', quoted: false },
      { kind: 'text', text: '$', quoted: false },
    ]);
  });

  test.each([
    ['echo a &&', 'unexpected end of file'],
    ['echo a; ;', 'unexpected ";"'],
    ['&& x', 'unexpected "&&"'],
    ['echo "abc', 'unterminated quoted string'],
    ["echo 'abc", 'unterminated quoted string'],
    ['echo ${', "missing '}'"],
    ['echo ${A', "missing '}'"],
    ['echo ${!}x${', "missing '}'"],
    ['echo ${A B}', 'bad substitution'],
    ['echo >', 'unexpected end of file'],
    ['echo > ;', 'unexpected ";"'],
    ['echo )', 'unexpected ")"'],
  ])('%j: syntax error: %s (ash wording)', (source, message) => {
    expect(syntaxError(source)).toBe(message);
  });

  test.each([
    ['(exit 2)', 'a subshell ( … )'],
    ['case a in a) echo;; esac', "the 'case' compound command"],
    ['echo $((1+2))', 'arithmetic expansion $((…))'],
    ['cat <<EOF', 'a here-document (<<)'],
    ['echo ${A%b}', 'the ${NAME%…} expansion'],
  ])('%j is refused as outside the contract', (source, construct) => {
    expect(syntaxError(source)).toBe(`${construct} is outside the fixture command contract (Shipshape reference)`);
  });

  test('a quoted keyword is an ordinary word', () => {
    expect(shape('"if" x')).toEqual([{ background: false, commands: [['"if"', 'x']], operators: [] }]);
  });

  test('the lines before a bad line parse; the error comes when the bad line is reached', () => {
    const parser = new ShellParser('echo a\necho "b');
    expect(parser.nextCommandLine()).toHaveLength(1);
    expect(() => parser.nextCommandLine()).toThrow('unterminated quoted string');
    expect(() => parser.nextCommandLine()).toThrow('unterminated quoted string');
  });

  test('a syntax error at the end of the text says more input could complete it', () => {
    const incomplete = (source: string) => {
      try {
        lines(source);
      } catch (error) {
        return error instanceof ShellSyntaxError && error.atEndOfInput;
      }
      return undefined;
    };
    expect(incomplete('echo "a')).toBe(true);
    expect(incomplete('true &&')).toBe(true);
    expect(incomplete('echo a; ;')).toBe(false);
  });
});

describe('ShellParser: pipelines, compound commands, command substitution', () => {
  test('a pipeline of three, and a line may end after |', () => {
    const [line] = lines('echo a | grep a |\n wc -l');
    expect(line?.[0]?.andOr.first.commands.map((command) => (command.kind === 'simple' ? command.words[0]?.source : command.kind))).toEqual(['echo', 'grep', 'wc']);
  });

  test('while, for and if over several lines, with redirections after done', () => {
    const [line] = lines('while read x\ndo\n  echo $x\ndone < /tmp/in');
    const loop = line?.[0]?.andOr.first.commands[0];
    expect(loop?.kind).toBe('loop');
    expect(loop?.kind === 'loop' && [loop.condition.length, loop.body.length, loop.redirections[0]?.target.source]).toEqual([1, 1, '/tmp/in']);
    const [forLine] = lines('for a in 1 2; do echo $a; done');
    const loopFor = forLine?.[0]?.andOr.first.commands[0];
    expect(loopFor?.kind === 'for' && [loopFor.name, loopFor.words?.map((word) => word.source)]).toEqual(['a', ['1', '2']]);
    const [ifLine] = lines('if false; then echo a; elif true; then echo b; else echo c; fi');
    const branching = ifLine?.[0]?.andOr.first.commands[0];
    expect(branching?.kind === 'if' && [branching.branches.length, branching.otherwise?.length]).toEqual([2, 1]);
  });

  test('$(…) and `…` are command parts holding their source', () => {
    const words = simple(lines('echo $(echo "a)" | cat) "`echo \\`x\\``"')[0]?.[0]?.andOr.first)?.words ?? [];
    expect(words[1]?.parts).toEqual([{ kind: 'command', source: 'echo "a)" | cat', quoted: false }]);
    expect(words[2]?.parts).toEqual([{ kind: 'text', text: '', quoted: true }, { kind: 'command', source: 'echo `x`', quoted: true }]);
  });

  test.each([
    ['while true; do echo', 'unexpected end of file (expecting "done")'],
    ['if true; then echo; fi fi', 'unexpected "fi"'],
    ['done', 'unexpected "done"'],
    ['while; do echo; done', 'unexpected ";"'],
    ['echo $(echo', 'unexpected end of file (expecting ")")'],
  ])('%j: syntax error: %s', (source, message) => {
    expect(syntaxError(source)).toBe(message);
  });
});
