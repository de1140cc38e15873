/**
 * The client scenarios that still fail on the reference, each with the reason (what dockerd does and
 * what the reference does instead): known-gaps.json, `{ client: { scenario: reason } }`. A listed
 * scenario must fail on the reference; once it passes its entry must go, so the list only shrinks.
 */
import { readFileSync } from 'node:fs';

type KnownGaps = Record<string, Record<string, string>>;

const KNOWN_GAPS = JSON.parse(readFileSync(new URL('./known-gaps.json', import.meta.url), 'utf8')) as KnownGaps;

/** The reason `scenario` of `client` is listed as failing on the reference, or undefined. */
export function knownGap(client: string, scenario: string): string | undefined {
  return KNOWN_GAPS[client]?.[scenario];
}

/** The scenarios listed for `client` (a test checks that each still names a scenario of the client). */
export function listedScenarios(client: string): string[] {
  return Object.keys(KNOWN_GAPS[client] ?? {});
}
