/**
 * The reference's personalities: where the spec allows more than one answer, `dockerd` gives
 * dockerd's and `strict` the other one the spec allows. A spec-level check passes on both.
 */
export const PERSONALITY_NAMES = ['dockerd', 'strict'] as const;
export type PersonalityName = (typeof PERSONALITY_NAMES)[number];

export function isPersonalityName(text: string): text is PersonalityName {
  return (PERSONALITY_NAMES as readonly string[]).includes(text);
}
