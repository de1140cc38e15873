/**
 * The spec inventory (fixtures/spec-inventory.json) and the coverage waivers
 * (fixtures/coverage-waivers.json): what the spec lists, and what no check can assert, with why.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

export interface InventoryItem {
  /** e.g. `1:POST /containers/create:status:409`; the scheme is documented at the top of the file */
  id: string;
  /** the spec section the item comes from, e.g. '1 §4.1' */
  section: string;
  note?: string;
}

export interface Waiver {
  /** an inventory id, or a pattern where `*` stands for any text (`*:status:500`) */
  id: string;
  reason: string;
}

export const INVENTORY_FILE = 'fixtures/spec-inventory.json';
export const WAIVERS_FILE = 'fixtures/coverage-waivers.json';

/** The spec document an id belongs to: the text before its first colon. */
export function documentOf(id: string): string {
  return id.slice(0, id.indexOf(':'));
}

export function waiverMatches(waiver: Waiver, id: string): boolean {
  const pattern = waiver.id.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${pattern}$`).test(id);
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as Error).message}`);
  }
}

function listOf<T>(file: string, data: unknown, key: string, fields: (keyof T & string)[]): T[] {
  const list = (data as Record<string, unknown> | null)?.[key];
  if (!Array.isArray(list)) throw new Error(`${file}: expected an object with an array "${key}"`);
  list.forEach((entry: Record<string, unknown>, index) => {
    const missing = fields.filter((field) => typeof entry?.[field] !== 'string' || entry[field] === '');
    if (missing.length > 0) throw new Error(`${file}: ${key}[${index}] lacks ${missing.join(', ')}`);
  });
  return list as T[];
}

export async function readInventory(root: string): Promise<InventoryItem[]> {
  const file = path.join(root, INVENTORY_FILE);
  const items = listOf<InventoryItem>(file, await readJson(file), 'items', ['id', 'section']);
  const seen = new Set<string>();
  for (const { id } of items) {
    if (seen.has(id)) throw new Error(`${file}: ${id} is listed twice`);
    seen.add(id);
  }
  return items;
}

export async function readWaivers(root: string): Promise<Waiver[]> {
  const file = path.join(root, WAIVERS_FILE);
  return listOf<Waiver>(file, await readJson(file), 'waivers', ['id', 'reason']);
}
