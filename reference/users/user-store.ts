/**
 * The users the token service and the accounts API share: passwords kept only as scrypt hashes, the
 * clear text dropped once hashed. Bad passwords for one name slow that name down: after a few in a
 * row, each next attempt first waits, twice as long as the one before (capped), until a right
 * password resets the count. Waiting, never refusing: a guesser loses time, the owner is never locked out.
 */
import { hashPassword, verifyPassword } from './password-hash.ts';
import type { UserEntry } from './users-file.ts';
import type { AccessRule } from '../token/access-rules.ts';

export interface EmailAddress {
  email: string;
  verified: boolean;
  primary: boolean;
}

export interface Profile {
  full_name: string;
  location: string;
  company: string;
  profile_url: string;
  avatar_email: string;
}

export interface UserRecord {
  id: number;
  username: string;
  passwordHash: string;
  access: AccessRule[];
  dateJoined: Date;
  isActive: boolean;
  profile: Profile;
  emails: EmailAddress[];
}

export interface UserStoreOptions {
  clock?: () => Date;
  /** how the store waits out a penalty (default: a timer) */
  wait?: (ms: number) => Promise<void>;
}

/** Bad passwords in a row that cost nothing; then 100 ms, 200 ms, … up to 2 s before each attempt. */
export const FREE_FAILURES = 3;
const FIRST_PENALTY_MS = 100;
const MAX_PENALTY_MS = 2_000;

export function penaltyMs(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(FIRST_PENALTY_MS * 2 ** (failures - FREE_FAILURES), MAX_PENALTY_MS);
}

export class UserStore {
  private readonly users = new Map<string, UserRecord>();
  private readonly failures = new Map<string, number>();
  /** Unknown names are checked against this hash too, so they cost what a known name costs. */
  private decoyHash = '';
  private readonly wait: (ms: number) => Promise<void>;

  private constructor(options: UserStoreOptions) {
    this.wait = options.wait ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  static async create(entries: readonly UserEntry[], options: UserStoreOptions = {}): Promise<UserStore> {
    const store = new UserStore(options);
    const joined = (options.clock ?? (() => new Date()))();
    store.decoyHash = await hashPassword('decoy');
    let id = 0;
    for (const entry of entries) {
      id += 1;
      store.users.set(entry.username, {
        id,
        username: entry.username,
        passwordHash: await hashPassword(entry.password),
        access: entry.access,
        dateJoined: joined,
        isActive: true,
        profile: { full_name: entry.full_name ?? '', location: '', company: '', profile_url: '', avatar_email: '' },
        emails: [{ email: entry.email, verified: true, primary: true }],
      });
    }
    return store;
  }

  get(username: string): UserRecord | undefined {
    return this.users.get(username);
  }

  /** The user when the password is theirs; waits first when the name has had bad passwords in a row. */
  async authenticate(username: string, password: string): Promise<UserRecord | undefined> {
    const penalty = penaltyMs(this.failures.get(username) ?? 0);
    if (penalty > 0) await this.wait(penalty);
    const user = this.users.get(username);
    const matches = await verifyPassword(password, user?.passwordHash ?? this.decoyHash);
    if (user && matches) {
      this.failures.delete(username);
      return user;
    }
    this.failures.set(username, (this.failures.get(username) ?? 0) + 1);
    return undefined;
  }
}
