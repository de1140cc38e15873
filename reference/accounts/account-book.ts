/**
 * The accounts API's rules (spec/3 §2.3, §2.4, §4), apart from HTTP: a user's profile and e-mail
 * addresses, kept on the user's record in the users store. A new address is unverified and not
 * primary; the primary one cannot be deleted; an address is listed once whatever its case.
 */
import { createHash } from 'node:crypto';
import { InvalidAccountChange, UnknownEmailAddress } from './account-errors.ts';
import type { EmailAddress, Profile, UserRecord } from '../users/user-store.ts';

export interface UserView {
  id: number;
  username: string;
  date_joined: string;
  type: 'User';
  full_name: string;
  location: string;
  company: string;
  profile_url: string;
  avatar_url: string;
  email: string;
  is_active: boolean;
}

export const PROFILE_FIELDS = ['full_name', 'location', 'company', 'profile_url', 'avatar_email'] as const;
const MAX_LENGTH: Record<(typeof PROFILE_FIELDS)[number], number> = { full_name: 255, location: 100, company: 100, profile_url: 255, avatar_email: 254 };
/** RFC 5321 limits an address to 254 characters; the syntax is the common subset: local@domain.tld */
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;
const MAX_EMAIL_LENGTH = 254;

export function isEmailAddress(text: string): boolean {
  return text.length <= MAX_EMAIL_LENGTH && EMAIL.test(text);
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** ISO 8601 with microseconds and Z (spec/3 §2.3): the clock has milliseconds, so the last three digits are zeros. */
export function microsecondTimestamp(date: Date): string {
  return date.toISOString().replace(/Z$/, '000Z');
}

/** An avatar URL of the avatar e-mail's digest, on the accounts API's own origin: the reference serves no images. */
function avatarUrl(origin: string, avatarEmail: string): string {
  if (avatarEmail === '') return '';
  return `${origin}/avatars/${createHash('md5').update(avatarEmail.trim().toLowerCase()).digest('hex')}`;
}

function primaryAddress(user: UserRecord): string {
  return user.emails.find((entry) => entry.primary)?.email ?? '';
}

export function userView(user: UserRecord, origin: string): UserView & { url: string } {
  return {
    id: user.id,
    username: user.username,
    url: `${origin}/api/v1.1/users/${encodeURIComponent(user.username)}/`,
    date_joined: microsecondTimestamp(user.dateJoined),
    type: 'User',
    full_name: user.profile.full_name,
    location: user.profile.location,
    company: user.profile.company,
    profile_url: user.profile.profile_url,
    avatar_url: avatarUrl(origin, user.profile.avatar_email),
    email: primaryAddress(user),
    is_active: user.isActive,
  };
}

/** Applies a PATCH body: every field optional, each a string within its length; URLs http(s), the avatar address an address. All or nothing. */
export function updateProfile(user: UserRecord, changes: Record<string, unknown>): void {
  const next: Profile = { ...user.profile };
  for (const field of PROFILE_FIELDS) {
    const value = changes[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new InvalidAccountChange(`${field} must be a string`);
    if (value.length > MAX_LENGTH[field]) throw new InvalidAccountChange(`${field} must be at most ${MAX_LENGTH[field]} characters`);
    if (field === 'profile_url' && value !== '' && !isHttpUrl(value)) throw new InvalidAccountChange('profile_url must be an http or https URL');
    if (field === 'avatar_email' && value !== '' && !isEmailAddress(value)) throw new InvalidAccountChange('avatar_email must be an e-mail address');
    next[field] = value;
  }
  user.profile = next;
}

export function listEmails(user: UserRecord): EmailAddress[] {
  return user.emails.map((entry) => ({ ...entry }));
}

function addressOf(body: Record<string, unknown>): string {
  const { email } = body;
  if (typeof email !== 'string' || email === '') throw new InvalidAccountChange('email is required');
  return email;
}

const sameAddress = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

export function addEmail(user: UserRecord, body: Record<string, unknown>): EmailAddress {
  const email = addressOf(body);
  if (!isEmailAddress(email)) throw new InvalidAccountChange(`${JSON.stringify(email)} is not an e-mail address`);
  if (user.emails.some((entry) => sameAddress(entry.email, email))) throw new InvalidAccountChange(`${email} is already one of this user's addresses`);
  const entry: EmailAddress = { email, verified: false, primary: false };
  user.emails.push(entry);
  return { ...entry };
}

export function deleteEmail(user: UserRecord, body: Record<string, unknown>): void {
  const email = addressOf(body);
  const index = user.emails.findIndex((entry) => sameAddress(entry.email, email));
  if (index < 0) throw new UnknownEmailAddress(`${email} is not one of this user's addresses`);
  if (user.emails[index]?.primary) throw new InvalidAccountChange(`${email} is the primary address: it cannot be deleted`);
  user.emails.splice(index, 1);
}
