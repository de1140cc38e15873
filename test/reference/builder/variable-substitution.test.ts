/** Word substitution as dockerd's shell lexer does it. */
import { describe, expect, test } from 'vitest';
import { processWord, processWords, SubstitutionError } from '../../../reference/engine/builder/variable-substitution.ts';

const env = ['A=one', 'EMPTY=', 'SPACED=x y', 'BARE'];

describe('processWord', () => {
  test.each([
    ['$A', 'one'],
    ['${A}_x', 'one_x'],
    ['$MISSING.', '.'],
    ['${MISSING:-fallback}', 'fallback'],
    ['${EMPTY:-fallback}', 'fallback'],
    ['${A:-fallback}', 'one'],
    ['${A:+set}', 'set'],
    ['${EMPTY:+set}', ''],
    ['${MISSING:+set}', ''],
    ['${A:-$SPACED}', 'one'],
    ['${MISSING:-${A}}', 'one'],
    ['"two words"', 'two words'],
    ["'$A'", '$A'],
    ['"$A and \\$A"', 'one and $A'],
    ['\\$A', '$A'],
    ['a\\ b', 'a b'],
    ['$', '$'],
    ['$BARE|', '|'],
  ])('%s → %j', (word, expected) => {
    expect(processWord(word, env, '\\')).toBe(expected);
  });

  test('with the backtick as escape token, a backslash is literal', () => {
    expect(processWord('c:\\x `$A', env, '`')).toBe('c:\\x $A');
  });

  test.each([
    ['${', "syntax error: missing '}'"],
    ['${A', "missing ':' in substitution"],
    ['${A:-x', "syntax error: missing '}'"],
    ['${}', 'syntax error: bad substitution'],
    ['${A:=x}', 'unsupported modifier (=) in substitution'],
    ['${MISSING:?}', 'MISSING: is not allowed to be unset'],
    ['"open', 'unexpected end of statement while looking for matching double-quote'],
    ["'open", 'unexpected end of statement while looking for matching single-quote'],
  ])('%s is refused: %s', (word, message) => {
    // the lexer names the word it failed on, as dockerd's does (`failed to process "${A": …`)
    expect(() => processWord(word, env, '\\')).toThrow(new SubstitutionError(`failed to process ${JSON.stringify(word)}: ${message}`));
  });
});

describe('processWords', () => {
  test('splits substituted values at whitespace, but never quoted or escaped text', () => {
    expect(processWords('$SPACED "q r" s\\ t', env, '\\')).toEqual(['x', 'y', 'q r', 's t']);
  });
});
