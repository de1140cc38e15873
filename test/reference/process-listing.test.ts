/** top: the process table as ps prints it for the supported ps_args. */
import { describe, expect, test } from 'vitest';
import { InvalidParameterError } from '../../reference/engine/model/common/errors.ts';
import { processListing } from '../../reference/engine/model/containers/process-listing.ts';
import type { ProcessTableRow } from '../../reference/engine/process/index.ts';

const started = new Date(2024, 2, 1, 9, 5);
const ROWS: ProcessTableRow[] = [
  { pid: 1, ppid: 0, hostPid: 4001, hostPpid: 4000, uid: 0, user: 'root', startedAt: started, tty: '?', time: '00:00:00', command: 'sh -c sleep 300 & wait', argv: ['sh', '-c', 'sleep 300 & wait'] },
  { pid: 2, ppid: 1, hostPid: 4002, hostPpid: 4001, uid: 0, user: 'root', startedAt: started, tty: '?', time: '00:00:00', command: 'sleep 300', argv: ['sleep', '300'] },
];
const anHourLater = new Date(2024, 2, 1, 10, 5, 7);

describe('processListing', () => {
  test('-ef, the default: UID PID PPID C STIME TTY TIME CMD, host pids', () => {
    expect(processListing(ROWS, '', anHourLater)).toEqual({
      Titles: ['UID', 'PID', 'PPID', 'C', 'STIME', 'TTY', 'TIME', 'CMD'],
      Processes: [
        ['root', '4001', '4000', '0', '09:05', '?', '00:00:00', 'sh -c sleep 300 & wait'],
        ['root', '4002', '4001', '0', '09:05', '?', '00:00:00', 'sleep 300'],
      ],
    });
  });

  test('a start more than a day ago shows its day', () => {
    expect(processListing(ROWS, '-ef', new Date(2024, 2, 3))?.Processes[0]?.[4]).toBe('Mar01');
  });

  test('aux: the BSD user format', () => {
    expect(processListing(ROWS, 'aux', anHourLater).Titles).toEqual(['USER', 'PID', '%CPU', '%MEM', 'VSZ', 'RSS', 'TTY', 'STAT', 'START', 'TIME', 'COMMAND']);
  });

  test('-o: the columns asked for, with their titles or the ones given', () => {
    expect(processListing(ROWS, '-o pid,comm,etime=AGE', anHourLater)).toEqual({
      Titles: ['PID', 'COMMAND', 'AGE'],
      Processes: [
        ['4001', 'sh', '01:00:07'],
        ['4002', 'sleep', '01:00:07'],
      ],
    });
  });

  test('without a PID column dockerd cannot pick the container rows; an unknown option fails as ps does: the client\'s mistake, naming the ps_args', () => {
    expect(() => processListing(ROWS, '-o comm', anHourLater)).toThrow(new InvalidParameterError('Couldn\'t find PID field in ps output (ps_args "-o comm")'));
    expect(() => processListing(ROWS, '-Z', anHourLater)).toThrow(new InvalidParameterError('Error running ps: exit status 1 (ps_args "-Z")'));
    expect(() => processListing(ROWS, '-o nosuch', anHourLater)).toThrow(InvalidParameterError);
  });
});
