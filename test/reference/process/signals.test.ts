import { describe, expect, test } from 'vitest';
import { defaultActionOf, signalName, signalNumber, UnknownSignalError } from '../../../reference/engine/process/signals.ts';

describe('signalNumber', () => {
  test.each([
    ['SIGKILL', 9],
    ['KILL', 9],
    ['kill', 9],
    ['SigTerm', 15],
    ['9', 9],
    [' 15 ', 15],
    [2, 2],
    ['SIGHUP', 1],
    ['USR1', 10],
    ['SIGUSR2', 12],
    ['IOT', 6],
    ['CLD', 17],
    ['WINCH', 28],
    ['RTMIN', 34],
    ['SIGRTMIN+3', 37],
    ['RTMAX-1', 63],
    ['SIGRTMAX', 64],
    [64, 64],
  ])('%j is %d', (spec, number) => {
    expect(signalNumber(spec)).toBe(number);
  });

  test.each(['', 'SIG', 'NOPE', 'SIGKILLX', '0', 0, 65, -9, '-9', 1.5, 'RTMIN+16', 'SIG9'])('%j is refused', (spec) => {
    expect(() => signalNumber(spec)).toThrow(UnknownSignalError);
  });

  test('the error names what was given, as dockerd does', () => {
    expect(() => signalNumber('FOO')).toThrow('Invalid signal: FOO');
  });
});

describe('signalName', () => {
  test.each([
    [9, 'SIGKILL'],
    ['term', 'SIGTERM'],
    ['IOT', 'SIGABRT'],
    ['CLD', 'SIGCHLD'],
    ['POLL', 'SIGIO'],
    [34, 'SIGRTMIN'],
    [35, 'SIGRTMIN+1'],
    [63, 'SIGRTMAX-1'],
    [64, 'SIGRTMAX'],
  ])('%j is %s', (spec, name) => {
    expect(signalName(spec)).toBe(name);
  });

  test('round-trips through signalNumber for every named number (32 and 33 have no name)', () => {
    for (let number = 1; number <= 64; number++) if (number !== 32 && number !== 33) expect(signalNumber(signalName(number))).toBe(number);
    expect(signalName(32)).toBe('SIG32');
  });
});

describe('defaultActionOf', () => {
  test('terminates for TERM, INT, HUP, USR1; ignores CHLD, WINCH, URG; STOP and CONT are job control', () => {
    expect([15, 2, 1, 10].map(defaultActionOf)).toEqual(['terminate', 'terminate', 'terminate', 'terminate']);
    expect([17, 28, 23].map(defaultActionOf)).toEqual(['ignore', 'ignore', 'ignore']);
    expect(defaultActionOf(19)).toBe('stop');
    expect(defaultActionOf(18)).toBe('continue');
  });
});
