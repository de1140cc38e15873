import { describe, expect, test } from 'vitest';
import { humanDuration, statusText } from '../../reference/engine/model/containers/container-status-text.ts';
import { createdState } from '../../reference/engine/model/containers/container-state.ts';

const NOW = new Date('2024-03-01T12:00:00Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000).toISOString();

describe('statusText', () => {
  test('worded as dockerd words each state', () => {
    const created = createdState();
    expect(statusText(created, NOW)).toBe('Created');
    expect(statusText({ ...created, Status: 'running', Running: true, StartedAt: ago(5) }, NOW)).toBe('Up 5 seconds');
    expect(statusText({ ...created, Status: 'paused', Running: true, Paused: true, StartedAt: ago(120) }, NOW)).toBe('Up 2 minutes (Paused)');
    expect(statusText({ ...created, Status: 'exited', ExitCode: 137, StartedAt: ago(60), FinishedAt: ago(1) }, NOW)).toBe('Exited (137) 1 second ago');
    expect(statusText({ ...created, Status: 'dead', Dead: true }, NOW)).toBe('Dead');
  });
});

describe('humanDuration', () => {
  test.each([
    [0.5, 'Less than a second'],
    [1, '1 second'],
    [59, '59 seconds'],
    [60, 'About a minute'],
    [45 * 60, '45 minutes'],
    [46 * 60, 'About an hour'],
    [47 * 3600, '47 hours'],
    [3 * 86400, '3 days'],
    [20 * 86400, '2 weeks'],
    [90 * 86400, '3 months'],
    [800 * 86400, '2 years'],
  ])('%d seconds read %j', (seconds, text) => {
    expect(humanDuration(seconds * 1000)).toBe(text);
  });
});
