/**
 * The token service and accounts API a run checks (spec/3): the ones `--auth-url`, `--accounts-url`,
 * `--service`, `--user`, `--password` name, or against the reference the ones it starts, acting as
 * the first user of `fixtures/users/users.json` (the second is the other user a caller must not
 * reach). Each is a capability: `token-service`, `accounts-api`, and `other-user` for the one check
 * that needs a second user's name; checks that need one the run lacks are skipped with the reason.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../cli/usage-error.ts';
import { AccountsClient } from '../client/accounts-client.ts';
import type { AccountServices } from '../session.ts';

export interface AccountServiceFlags {
  authUrl?: string;
  accountsUrl?: string;
  service?: string;
  user?: string;
  password?: string;
}

/** the service name asked for when `--service` is not given: the reference token service's default */
export const DEFAULT_SERVICE = 'shipshape-registry';
const FIXTURE_USERS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/users/users.json');

function checkUrl(flag: string, url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  if (!/^https?:\/\/[^/]+/.test(url)) throw new UsageError(`--${flag}: expected an http(s):// URL, got ${JSON.stringify(url)}`);
  return url.replace(/\/+$/, '');
}

/** The services the flags name, or undefined when they name none. */
export function servicesFromFlags(flags: AccountServiceFlags): AccountServices | undefined {
  if ((flags.user === undefined) !== (flags.password === undefined)) throw new UsageError('--user and --password go together');
  const authUrl = checkUrl('auth-url', flags.authUrl);
  const accountsUrl = checkUrl('accounts-url', flags.accountsUrl);
  if (authUrl === undefined && accountsUrl === undefined) return undefined;
  return {
    ...(authUrl ? { authUrl } : {}),
    ...(accountsUrl ? { accountsUrl } : {}),
    service: flags.service ?? DEFAULT_SERVICE,
    ...(flags.user !== undefined && flags.password !== undefined ? { user: { username: flags.user, password: flags.password } } : {}),
  };
}

/** The reference's services as the checks see them: their URLs, its service name, the fixture users. */
export async function referenceServices(urls: { authUrl: string; accountsUrl: string; service: string }): Promise<AccountServices> {
  const users = JSON.parse(await readFile(FIXTURE_USERS, 'utf8')) as { username: string; password: string }[];
  const [first, second] = users;
  if (!first || !second) throw new Error(`${FIXTURE_USERS} must list two users: the one the checks act as and another`);
  return { ...urls, user: { username: first.username, password: first.password }, otherUsername: second.username };
}

export function accountCapabilities(services: AccountServices | undefined): string[] {
  if (!services?.user) return [];
  return [
    ...(services.authUrl ? ['token-service'] : []),
    ...(services.accountsUrl ? ['accounts-api'] : []),
    ...(services.otherUsername ? ['other-user'] : []),
  ];
}

const RESTORED_FIELDS = ['full_name', 'location', 'company', 'profile_url'] as const;

/**
 * Notes the run's user's profile before any check, and returns what puts it back at the end: the
 * PATCH checks of every version change the same fields side by side, so no check could restore them
 * alone. Added addresses are each check's to delete. Without an accounts API, nothing to do.
 */
export async function keepProfile(services: AccountServices | undefined): Promise<() => Promise<string[]>> {
  if (!services?.accountsUrl || !services.user) return async () => [];
  const client = new AccountsClient(services.accountsUrl, []);
  const auth = { basic: services.user };
  const before = await client.send('GET', services.user.username, 'user', { auth });
  if (before.status !== 200) return async () => [`could not read ${services.user?.username}'s profile before the run: ${before.describe()}`];
  const profile = before.json<Record<string, unknown>>();
  const kept = Object.fromEntries(RESTORED_FIELDS.filter((field) => typeof profile[field] === 'string').map((field) => [field, profile[field]]));
  return async () => {
    const restored = await client.send('PATCH', services.user?.username ?? '', 'user', { auth, json: kept });
    return restored.status === 200 ? [] : [`could not put back ${services.user?.username}'s profile: ${restored.describe()}`];
  };
}
