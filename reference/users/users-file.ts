/**
 * The users file of `serve --users FILE` (DESIGN.md): a JSON array of
 * `{username, password, email, full_name?, access: [{type, name, actions}]}`. Reading it checks every
 * entry; its errors name the entry, never a password.
 */
import { readFile } from 'node:fs/promises';
import type { AccessRule } from '../token/access-rules.ts';

export interface UserEntry {
  username: string;
  password: string;
  email: string;
  full_name?: string;
  access: AccessRule[];
}

const USERNAME = /^[a-z0-9][a-z0-9_.-]{0,29}$/;

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function checkEntry(value: unknown, index: number): UserEntry {
  const entry = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const where = `users file entry ${index}${typeof entry.username === 'string' ? ` (${entry.username})` : ''}`;
  if (typeof entry.username !== 'string' || !USERNAME.test(entry.username)) throw new Error(`${where}: username must be 1-30 lowercase letters, digits, _ . -`);
  if (typeof entry.password !== 'string' || entry.password === '') throw new Error(`${where}: password must be a non-empty string`);
  if (typeof entry.email !== 'string' || !entry.email.includes('@')) throw new Error(`${where}: email must be an address`);
  if (entry.full_name !== undefined && typeof entry.full_name !== 'string') throw new Error(`${where}: full_name must be a string`);
  const access = entry.access ?? [];
  if (!Array.isArray(access)) throw new Error(`${where}: access must be an array of {type, name, actions}`);
  const rules = access.map((rule: unknown, ruleIndex) => {
    const { type, name, actions } = (rule ?? {}) as Record<string, unknown>;
    if (typeof type !== 'string' || typeof name !== 'string' || !isStringArray(actions)) throw new Error(`${where}: access rule ${ruleIndex} must be {type, name, actions: [..]}`);
    return { type, name, actions };
  });
  return { username: entry.username, password: entry.password, email: entry.email, ...(entry.full_name !== undefined ? { full_name: entry.full_name } : {}), access: rules };
}

export function parseUsers(text: string, source: string): UserEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source}: not JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(parsed)) throw new Error(`${source}: expected a JSON array of users`);
  const entries = parsed.map((value, index) => checkEntry(value, index));
  const names = new Set<string>();
  for (const { username } of entries) {
    if (names.has(username)) throw new Error(`${source}: user ${username} is listed twice`);
    names.add(username);
  }
  return entries;
}

export async function readUsersFile(file: string): Promise<UserEntry[]> {
  return parseUsers(await readFile(file, 'utf8'), file);
}
