/** The build file's lines as dockerd's parser reads them: directives, comments, continuations, flags. */
import { describe, expect, test } from 'vitest';
import { BuildfileSyntaxError } from '../../../reference/engine/builder/buildfile-errors.ts';
import { parseBuildfile } from '../../../reference/engine/builder/buildfile-parser.ts';

describe('parseBuildfile', () => {
  test('continuations join lines, keeping the next line\'s leading spaces; the text shows as written', () => {
    const { lines } = parseBuildfile('FROM busybox\nRUN echo a;\\\n  echo b\nENV X=1 \\\n   Y=2\n');
    expect(lines.map((line) => line.original)).toEqual(['FROM busybox', 'RUN echo a;  echo b', 'ENV X=1    Y=2']);
    expect(lines.map((line) => line.line)).toEqual([1, 2, 4]);
  });

  test('comments and blank lines are skipped, also inside a continuation', () => {
    const { lines } = parseBuildfile('# first\n\nFROM busybox\nRUN echo a \\\n# inside\n\n  b\n   # indented comment\n');
    expect(lines.map((line) => [line.keyword, line.args])).toEqual([
      ['from', 'busybox'],
      ['run', 'echo a   b'],
    ]);
  });

  test('keywords are case-insensitive; leading flags are set apart', () => {
    const [line] = parseBuildfile('copy --chown=1:1 --from=x a b').lines;
    expect(line).toMatchObject({ keyword: 'copy', flags: ['--chown=1:1', '--from=x'], args: 'a b' });
  });

  test('`# escape=` makes the backtick the continuation and leaves backslashes literal', () => {
    const parsed = parseBuildfile('# escape=`\nFROM busybox\nRUN echo a `\n  b\nWORKDIR c:\\x\n');
    expect(parsed.escape).toBe('`');
    expect(parsed.lines.map((line) => line.original)).toEqual(['FROM busybox', 'RUN echo a   b', 'WORKDIR c:\\x']);
  });

  test('a directive after the first instruction, or after an unknown directive, is a comment', () => {
    expect(parseBuildfile('FROM busybox\n# escape=`\n').escape).toBe('\\');
    expect(parseBuildfile('# other=1\n# escape=`\nFROM busybox\n').escape).toBe('\\');
  });

  test.each([
    ['', 'file with no instructions'],
    ['# only a comment\n', 'file with no instructions'],
    ['# escape=x\nFROM busybox\n', "invalid escape token 'x' does not match ` or \\"],
    ['# escape=`\n# escape=\\\nFROM busybox\n', 'only one escape parser directive can be used'],
  ])('%j is refused: %s', (text, message) => {
    expect(() => parseBuildfile(text)).toThrow(new BuildfileSyntaxError(message));
  });
});
