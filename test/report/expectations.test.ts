import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { applyExpectations, gateFailures, loadExpectations, parseExpectations } from '../../harness/expectations.ts';
import { API_VERSIONS } from '../../protocol/versions.ts';
import { everywhere, makeCheck, makeReport } from './sample-report.ts';

const FILE = 'fixtures/expectations/docker-20.10.json';
const versions = [...API_VERSIONS];

const expectations = parseExpectations({
  target: 'docker-20.10',
  description: 'dockerd 20.10.24',
  expected: {
    'system.info.schema': { '*': 'no ClusterStore since API 1.40' },
    'containers.create.no-cmd': { '1.18-1.23': '400, not 500, before 1.24' },
    'system.errors.json-body': { '1.24': 'plain-text error bodies' },
    'exec.start.detach': { '*': 'hangs on detach' },
  },
}, FILE);

describe('applyExpectations', () => {
  const checks = [
    makeCheck('system.info.schema', everywhere({ status: 'failed', message: 'no ClusterStore', durationMs: 3 })),
    makeCheck('containers.create.no-cmd', Object.fromEntries(versions.map((version) => [version, { status: 'failed' as const, message: 'got 400' }]))),
    makeCheck('system.errors.json-body', everywhere({ status: 'passed' })),
    makeCheck('exec.start.detach', { ...everywhere({ status: 'error', message: 'socket hang up' }), '1.18': { status: 'skipped', reason: 'the target lacks exec' } }),
    makeCheck('system.ping.body', everywhere({ status: 'failed', message: 'not OK' })),
  ];
  const { checks: judged, problems } = applyExpectations(checks, versions, expectations);
  const status = (id: string, version: string) => judged.find((check) => check.id === id)?.results[version];

  it('turns a listed failure into an expected failure with the reason, keeping the message', () => {
    expect(status('system.info.schema', '1.20')).toEqual({ status: 'expected-failure', message: 'no ClusterStore', durationMs: 3, reason: 'no ClusterStore since API 1.40' });
  });

  it('judges only the versions an entry covers', () => {
    expect(status('containers.create.no-cmd', '1.23')?.status).toBe('expected-failure');
    expect(status('containers.create.no-cmd', '1.24')?.status).toBe('failed');
  });

  it('turns a listed pass into an unexpected pass that says to remove the entry', () => {
    const result = status('system.errors.json-body', '1.24');
    expect(result?.status).toBe('unexpected-pass');
    expect(result?.message).toContain(`listed as expected to fail (plain-text error bodies) but passed: remove it from ${FILE}`);
    expect(status('system.errors.json-body', '1.25')?.status).toBe('passed');
  });

  it('leaves errors, skips and unlisted checks as they were', () => {
    expect(status('exec.start.detach', '1.24')).toEqual({ status: 'error', message: 'socket hang up' });
    expect(status('exec.start.detach', '1.18')?.status).toBe('skipped');
    expect(status('system.ping.body', '1.24')?.status).toBe('failed');
    expect(problems).toEqual([]);
  });

  it('does not change the checks it was given', () => {
    expect(checks[0]?.results['1.20']?.status).toBe('failed');
  });

  it('makes the gate list failed, error and unexpected-pass results only', () => {
    const gate = gateFailures(makeReport(judged));
    expect(new Set(gate.map((failure) => failure.status))).toEqual(new Set(['failed', 'error', 'unexpected-pass']));
    expect(gate.filter((failure) => failure.check === 'system.info.schema')).toEqual([]);
    expect(gate.filter((failure) => failure.check === 'containers.create.no-cmd').map((failure) => failure.version)).toEqual(['1.24', '1.25']);
    expect(gate).toContainEqual(expect.objectContaining({ check: 'system.errors.json-body', version: '1.24', status: 'unexpected-pass' }));
    expect(gate).toHaveLength(2 + 1 + 7 + 8);
  });

  it('is an empty gate when every failure is expected', () => {
    const run = applyExpectations([makeCheck('system.info.schema', everywhere({ status: 'failed' }))], versions, expectations, { selected: (id) => id.startsWith('system.info') });
    expect(gateFailures(makeReport(run.checks))).toEqual([]);
    expect(run.problems).toEqual([]);
  });
});

describe('stale entries', () => {
  it('reports an entry naming a check that does not exist, so the file ratchets', () => {
    const { problems } = applyExpectations([makeCheck('system.info.schema', everywhere({ status: 'failed' }))], versions, expectations);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toBe(`${FILE}: "containers.create.no-cmd" is not a check (renamed or removed?): delete its entry`);
  });

  it('leaves entries alone for checks the run did not select (--only)', () => {
    const { problems } = applyExpectations([makeCheck('system.info.schema', everywhere({ status: 'failed' }))], versions, expectations, { selected: (id) => id.startsWith('system.') });
    expect(problems).toEqual([`${FILE}: "system.errors.json-body" is not a check (renamed or removed?): delete its entry`]);
  });

  it('reports an entry for versions where its check does not apply', () => {
    const file = parseExpectations({ target: 't', expected: { 'swarm.service.create': { '1.18-1.23': 'no swarm' } } }, FILE);
    const { problems } = applyExpectations([makeCheck('swarm.service.create', everywhere({ status: 'skipped', reason: 'applies from 1.24 on' }), { since: '1.24' })], versions, file);
    expect(problems).toEqual([`${FILE}: "swarm.service.create" at "1.18-1.23": the check applies at 1.24 on only: narrow or delete the entry`]);
  });
});

describe('malformed expectations files', () => {
  const rejects = (value: unknown) => {
    try {
      parseExpectations(value, FILE);
    } catch (error) {
      const message = (error as Error).message;
      expect(message.startsWith(`--expect ${FILE}: `)).toBe(true);
      expect(message).not.toContain('\n');
      return message;
    }
    throw new Error(`accepted ${JSON.stringify(value)}`);
  };
  const withEntry = (entry: unknown) => ({ target: 'docker-20.10', expected: { 'system.info.schema': entry } });

  it.each([
    [{ expected: {} }, 'top level: missing "target"'],
    [{ target: 'x', expected: {}, expectations: {} }, 'unknown field "expectations"'],
    [{ target: 'x', expected: { 'Not An Id': { '*': 'r' } } }, '"Not An Id" is not a check id'],
    [withEntry({ '1.2x': 'r' }), 'expected["system.info.schema"]: "1.2x" is not a version'],
    [withEntry({ '1.24': 'first line\nsecond line' }), 'must be a one-line reason'],
    [withEntry({ '1.24': '  ' }), 'must be a one-line reason'],
    [withEntry({ '1.24': 42 }), 'must be a one-line reason'],
    [withEntry({}), 'at least one entry'],
    [withEntry({ '1.23-1.18': 'r' }), 'the range runs backwards'],
    [withEntry({ '1.30': 'r' }), 'names no version in 1.18-1.25'],
    [withEntry({ '*': 'r', '1.24': 'r' }), '"*" and "1.24" both cover 1.24'],
    [[], 'top level'],
  ])('rejects %j', (value, expected) => {
    expect(rejects(value)).toContain(expected);
  });

  const dir = fs.mkdtemp(path.join(os.tmpdir(), 'shipshape-expect-'));
  afterAll(async () => fs.rm(await dir, { recursive: true, force: true }));

  it('loads a valid file from disk, and says in one line when it cannot', async () => {
    const good = path.join(await dir, 'good.json');
    await fs.writeFile(good, JSON.stringify({ target: 'x', expected: { 'system.a.b': { '1.24': 'why' } } }));
    expect((await loadExpectations(good)).entries.get('system.a.b')).toEqual([{ key: '1.24', versions: ['1.24'], reason: 'why' }]);
    const broken = path.join(await dir, 'broken.json');
    await fs.writeFile(broken, '{ "target": ');
    await expect(loadExpectations(broken)).rejects.toThrow(new RegExp(`^--expect ${broken}: not JSON`));
    await expect(loadExpectations(path.join(await dir, 'missing.json'))).rejects.toThrow(/: cannot read \(ENOENT\)$/);
  });
});

// The files the repository ships must load: a malformed one would only show on the live job. Each
// is named after its target; the reference's may be empty (every check passes there).
const shipped = await fs.readdir(fileURLToPath(new URL('../../fixtures/expectations/', import.meta.url))).then((names) => names.filter((name) => name.endsWith('.json')), () => []);
describe.runIf(shipped.length > 0)('fixtures/expectations', () => {
  it.each(shipped)('%s is a valid expectations file for the target it is named after', async (name) => {
    const loaded = await loadExpectations(fileURLToPath(new URL(`../../fixtures/expectations/${name}`, import.meta.url)));
    expect(loaded.target).toBe(name.replace(/\.json$/, ''));
  });
});
