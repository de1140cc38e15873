import { describe, expect, test } from 'vitest';
import { ShellParser } from '../../../reference/engine/process/shell-parser.ts';
import { ShellSyntaxError, UnsupportedSyntaxError, type CommandLine, type Word } from '../../../reference/engine/process/shell-syntax.ts';

function lines(source: string): CommandLine[] {
  const parser = new ShellParser(source);
  const result: CommandLine[] = [];
  for (let line = parser.nextCommandLine(); line !== undefined; line = parser.nextCommandLine()) result.push(line);
  return result;
}

/** The words of the commands of a one-line script, as source text. */
function shape(source: string): unknown {
  const [line] = lines(source);
  return line?.map((item) => ({
    background: item.background,
    commands: [item.andOr.first, ...item.andOr.rest.map((rest) => rest.pipeline)].map((pipeline) => pipeline.command.words.map((word: Word) => word.source)),
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
    expect(parsed[1]?.[0]?.andOr.rest[0]?.pipeline.command.line).toBe(4);
  });

  test('assignments before the command word, redirections anywhere', () => {
    const [line] = lines('A=1 B="x y" echo $A >/tmp/out 2>&1 word');
    const command = line?.[0]?.andOr.first.command;
    expect(command?.assignments.map((assignment) => assignment.name)).toEqual(['A', 'B']);
    expect(command?.words.map((word) => word.source)).toEqual(['echo', '$A', 'word']);
    expect(command?.redirections.map(({ fd, operator, target }) => [fd, operator, target.source])).toEqual([
      [1, '>', '/tmp/out'],
      [2, '>&', '1'],
    ]);
  });

  test('an assignment after the command word is a word', () => {
    const command = lines('echo A=1')[0]?.[0]?.andOr.first.command;
    expect(command?.assignments).toEqual([]);
    expect(command?.words.map((word) => word.source)).toEqual(['echo', 'A=1']);
  });

  test('quoting: single quotes are literal, double quotes keep $ expansions, backslash escapes', () => {
    const words = lines(`echo 'a $X' "b $Y" c\\ d ""`)[0]?.[0]?.andOr.first.command.words ?? [];
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
    const words = lines('echo $A ${B} ${C:-d e} ${#D} $? $$ $! $# $1 $')[0]?.[0]?.andOr.first.command.words ?? [];
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
    ['echo a | cat', 'a pipe (|)'],
    ['(exit 2)', 'a subshell ( … )'],
    ['if true; then echo; fi', "the 'if' compound command"],
    ['for a in b; do echo; done', "the 'for' compound command"],
    ['echo $(date)', 'command substitution $(…)'],
    ['echo `date`', 'command substitution `…`'],
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
