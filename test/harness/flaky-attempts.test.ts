/** `run --repeat N`: a check whose attempts differ is flaky, and says so first in its message. */
import { describe, expect, test } from 'vitest';
import { withAttempts } from '../../harness/run/result-collector.ts';

describe('withAttempts', () => {
  test('attempts that all ended alike are kept, and nothing is flaky', () => {
    expect(withAttempts({ status: 'passed' }, ['passed', 'passed', 'passed'])).toEqual({ status: 'passed', attempts: ['passed', 'passed', 'passed'] });
    expect(withAttempts({ status: 'failed', message: 'expected 200' }, ['failed', 'failed'])).toEqual({ status: 'failed', message: 'expected 200', attempts: ['failed', 'failed'] });
  });

  test('attempts that differ make the result flaky, with the attempts in the message', () => {
    expect(withAttempts({ status: 'failed', message: 'expected 200, got 500' }, ['passed', 'failed', 'passed'])).toEqual({
      status: 'failed',
      attempts: ['passed', 'failed', 'passed'],
      flaky: true,
      message: 'flaky: the 3 attempts ended passed, failed, passed\nexpected 200, got 500',
    });
  });
});
