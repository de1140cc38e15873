import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isComplete, mapCoverage, versionRanges } from '../../harness/coverage/coverage-map.ts';
import { renderCoverageMarkdown } from '../../harness/coverage/render-coverage-markdown.ts';
import { INVENTORY_FILE, readInventory, readWaivers, waiverMatches, WAIVERS_FILE } from '../../harness/coverage/spec-inventory.ts';
import { REPO_ROOT } from '../../harness/repo-root.ts';

const INVENTORY = [
  { id: '1:POST /containers/create', section: '1 §4.1' },
  { id: '1:POST /containers/create:status:409', section: '1 §4.1' },
  { id: '1:POST /containers/create:status:500', section: '1 §4.1' },
  { id: '1:version-rule:1.24:json-errors', section: '1 §7.1' },
  { id: '2:GET /events:query:since', section: '2 §4.2' },
];
const WAIVERS = [{ id: '*:status:500', reason: 'no request provokes it' }];

describe('mapCoverage', () => {
  it('gives each covered item its checks and the union of their versions', () => {
    const map = mapCoverage(
      INVENTORY,
      [
        { id: 'containers.create.conflict', since: '1.18', until: '1.19', covers: ['1:POST /containers/create', '1:POST /containers/create:status:409'] },
        { id: 'containers.create.name', since: '1.24', covers: ['1:POST /containers/create'] },
      ],
      WAIVERS,
    );
    const create = map.items.find((item) => item.id === '1:POST /containers/create');
    expect(create).toMatchObject({ status: 'covered', checks: ['containers.create.conflict', 'containers.create.name'], versions: ['1.18', '1.19', '1.24', '1.25'] });
    expect(map.items.find((item) => item.id.endsWith(':409'))?.versions).toEqual(['1.18', '1.19']);
  });

  it('waives by pattern only what no check covers, and counts per document', () => {
    const map = mapCoverage(INVENTORY, [{ id: 'a.b', since: '1.18', covers: ['1:POST /containers/create:status:500'] }], [
      ...WAIVERS,
      { id: '2:GET /events:query:since', reason: 'why' },
    ]);
    expect(map.items.find((item) => item.id.endsWith(':500'))?.status).toBe('covered');
    expect(map.items.find((item) => item.id === '2:GET /events:query:since')).toMatchObject({ status: 'waived', waiver: 'why' });
    expect(map.documents).toEqual([
      { document: '1', items: 4, covered: 1, waived: 0, uncovered: 3 },
      { document: '2', items: 1, covered: 0, waived: 1, uncovered: 0 },
    ]);
    expect(isComplete(map)).toBe(false);
  });

  it('is complete only when every item is covered or waived and every named id exists', () => {
    const all = { id: 'a.b', since: '1.18' as const, covers: INVENTORY.map((item) => item.id) };
    expect(isComplete(mapCoverage(INVENTORY, [all], []))).toBe(true);
    const unknown = mapCoverage(INVENTORY, [all, { id: 'a.c', since: '1.18', covers: ['1:GET /nowhere'] }], []);
    expect(unknown.unknownCovers).toEqual([{ check: 'a.c', id: '1:GET /nowhere' }]);
    expect(isComplete(unknown)).toBe(false);
    const typo = mapCoverage(INVENTORY, [all], [{ id: '9:*', reason: 'r' }]);
    expect(typo.unknownWaivers).toEqual([{ id: '9:*', reason: 'r' }]);
    expect(isComplete(typo)).toBe(false);
  });
});

describe('waiverMatches', () => {
  it('reads * as any text and everything else literally', () => {
    expect(waiverMatches({ id: '*:status:500', reason: '' }, '1:GET /containers/{id_or_name}/json:status:500')).toBe(true);
    expect(waiverMatches({ id: '*:status:500', reason: '' }, '1:GET /x:status:5000')).toBe(false);
    expect(waiverMatches({ id: '1:GET /a.b', reason: '' }, '1:GET /aXb')).toBe(false);
  });
});

describe('versionRanges', () => {
  it('joins consecutive versions', () => {
    expect(versionRanges(['1.18', '1.19', '1.20', '1.21', '1.22', '1.23', '1.24', '1.25'])).toBe('1.18–1.25');
    expect(versionRanges(['1.18', '1.24', '1.25'])).toBe('1.18, 1.24–1.25');
    expect(versionRanges([])).toBe('');
  });
});

describe('renderCoverageMarkdown', () => {
  it('lists what is not covered, the waivers and the checks with their versions', () => {
    const map = mapCoverage(INVENTORY, [{ id: 'c.d', since: '1.24', covers: ['1:version-rule:1.24:json-errors', '1:GET /x'] }], WAIVERS);
    const text = renderCoverageMarkdown(map);
    expect(text).toContain('| spec/1 | 4 | 1 | 1 | 2 |');
    expect(text).toContain('- `1:POST /containers/create:status:409` (1 §4.1)');
    expect(text).toContain('| `1:version-rule:1.24:json-errors` | 1 §7.1 | `c.d` at 1.24–1.25 |');
    expect(text).toContain('waived: no request provokes it');
    expect(text).toContain('- `1:GET /x`, named by `c.d`');
  });
});

describe('reading the inventory', () => {
  it('reads the project inventory and waivers', async () => {
    const items = await readInventory(REPO_ROOT);
    expect(items.length).toBeGreaterThan(600);
    expect(items.every((item) => /^[123]:/.test(item.id))).toBe(true);
    expect((await readWaivers(REPO_ROOT)).every((waiver) => waiver.reason.length > 10)).toBe(true);
  });

  it('refuses an id listed twice and an item without a section', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'coverage-'));
    await fs.mkdir(path.join(root, path.dirname(INVENTORY_FILE)), { recursive: true });
    await fs.writeFile(path.join(root, INVENTORY_FILE), JSON.stringify({ items: [INVENTORY[0], INVENTORY[0]] }));
    await expect(readInventory(root)).rejects.toThrow('listed twice');
    await fs.writeFile(path.join(root, INVENTORY_FILE), JSON.stringify({ items: [{ id: '1:x' }] }));
    await expect(readInventory(root)).rejects.toThrow('items[0] lacks section');
    await fs.writeFile(path.join(root, WAIVERS_FILE), JSON.stringify({ waivers: [{ id: '1:x' }] }));
    await expect(readWaivers(root)).rejects.toThrow('waivers[0] lacks reason');
    await fs.rm(root, { recursive: true });
  });
});
