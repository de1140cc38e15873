/** The users store: scrypt hashes and no clear password kept; bad passwords in a row for one name slowed, reset by a right one. */
import { expect, test } from 'vitest';
import { hashPassword, verifyPassword } from '../../../reference/users/password-hash.ts';
import { FREE_FAILURES, penaltyMs, UserStore } from '../../../reference/users/user-store.ts';
import { parseUsers } from '../../../reference/users/users-file.ts';

const ENTRY = { username: 'carol', password: 'carol-Secret-77', email: 'carol@example.org', access: [] };

test('a password is kept as a salted scrypt hash that verifies it and nothing else', async () => {
  const [first, second] = [await hashPassword('pw'), await hashPassword('pw')];
  expect(first).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
  expect(first).not.toBe(second);
  expect(await verifyPassword('pw', first)).toBe(true);
  expect(await verifyPassword('pW', first)).toBe(false);
});

test('the store keeps no clear password', async () => {
  const store = await UserStore.create([ENTRY]);
  const record = store.get('carol');
  expect(JSON.stringify(record)).not.toContain(ENTRY.password);
  expect(record?.emails).toEqual([{ email: ENTRY.email, verified: true, primary: true }]);
});

test('bad passwords in a row wait longer each time, up to a cap; a right password resets the count; other names are not slowed', async () => {
  const waits: number[] = [];
  const store = await UserStore.create([ENTRY], { wait: async (ms) => void waits.push(ms) });
  for (let attempt = 0; attempt < FREE_FAILURES + 6; attempt += 1) expect(await store.authenticate('carol', 'wrong')).toBeUndefined();
  expect(waits).toEqual([100, 200, 400, 800, 1600, 2000]);
  expect(penaltyMs(50)).toBe(2000);
  expect((await store.authenticate('carol', ENTRY.password))?.username).toBe('carol');
  expect(waits).toHaveLength(7);
  waits.length = 0;
  expect(await store.authenticate('carol', ENTRY.password)).toBeDefined();
  expect(await store.authenticate('nobody', 'x')).toBeUndefined();
  expect(waits).toEqual([]);
});

test('the users file: entries checked, errors name the entry and never the password', () => {
  expect(parseUsers(JSON.stringify([ENTRY]), 'users.json')).toEqual([ENTRY]);
  expect(() => parseUsers('{}', 'users.json')).toThrow('users.json: expected a JSON array of users');
  expect(() => parseUsers(JSON.stringify([ENTRY, ENTRY]), 'users.json')).toThrow('user carol is listed twice');
  const broken = () => parseUsers(JSON.stringify([{ ...ENTRY, email: 'nope' }]), 'users.json');
  expect(broken).toThrow(/entry 0 \(carol\): email/);
  try {
    broken();
  } catch (error) {
    expect((error as Error).message).not.toContain(ENTRY.password);
  }
  expect(() => parseUsers(JSON.stringify([{ ...ENTRY, access: [{ type: 'repository', name: 'x' }] }]), 'users.json')).toThrow(/access rule 0/);
});
