/**
 * Which checks cover each inventory item and at which API versions, which items are waived instead,
 * and what names nothing: the model behind `shipshape coverage`'s summary, coverage.md and coverage.json.
 */
import { API_VERSIONS, appliesAt, type ApiVersion } from '../../protocol/versions.ts';
import { documentOf, waiverMatches, type InventoryItem, type Waiver } from './spec-inventory.ts';

/** What coverage needs of a check: its id, its version range and what it covers. */
export interface CoveringCheck {
  id: string;
  since: ApiVersion;
  until?: ApiVersion;
  covers?: string[];
}

export type ItemStatus = 'covered' | 'waived' | 'uncovered';

export interface ItemCoverage extends InventoryItem {
  status: ItemStatus;
  /** the checks that name the item, by id */
  checks: string[];
  /** versions at which at least one of those checks runs, oldest first */
  versions: ApiVersion[];
  /** the reason of the waiver, for a waived item */
  waiver?: string;
}

export interface DocumentSummary {
  document: string;
  items: number;
  covered: number;
  waived: number;
  uncovered: number;
}

export interface CoverageMap {
  items: ItemCoverage[];
  documents: DocumentSummary[];
  /** check ids naming an id the inventory does not hold */
  unknownCovers: { check: string; id: string }[];
  /** waivers that match no inventory item (a typo, or an item since renamed) */
  unknownWaivers: Waiver[];
}

export function mapCoverage(inventory: InventoryItem[], checks: CoveringCheck[], waivers: Waiver[]): CoverageMap {
  const known = new Set(inventory.map((item) => item.id));
  const coveringChecks = new Map<string, CoveringCheck[]>();
  const unknownCovers: CoverageMap['unknownCovers'] = [];
  for (const check of checks) {
    for (const id of new Set(check.covers ?? [])) {
      if (!known.has(id)) unknownCovers.push({ check: check.id, id });
      else coveringChecks.set(id, [...(coveringChecks.get(id) ?? []), check]);
    }
  }
  const items = inventory.map((item): ItemCoverage => {
    const covering = coveringChecks.get(item.id) ?? [];
    if (covering.length > 0) {
      const versions = API_VERSIONS.filter((version) => covering.some((check) => appliesAt(version, check.since, check.until)));
      return { ...item, status: 'covered', checks: covering.map((check) => check.id).sort(), versions };
    }
    // A waiver stands only for what no check covers: a pattern never hides a check that exists.
    const waiver = waivers.find((candidate) => waiverMatches(candidate, item.id));
    if (waiver) {
      return { ...item, status: 'waived', checks: [], versions: [], waiver: waiver.reason };
    }
    return { ...item, status: 'uncovered', checks: [], versions: [] };
  });
  return { items, documents: summarizeDocuments(items), unknownCovers, unknownWaivers: waivers.filter((waiver) => !inventory.some((item) => waiverMatches(waiver, item.id))) };
}

function summarizeDocuments(items: ItemCoverage[]): DocumentSummary[] {
  const byDocument = new Map<string, DocumentSummary>();
  for (const item of items) {
    const document = documentOf(item.id);
    const summary = byDocument.get(document) ?? { document, items: 0, covered: 0, waived: 0, uncovered: 0 };
    summary.items++;
    summary[item.status]++;
    byDocument.set(document, summary);
  }
  return [...byDocument.values()].sort((a, b) => a.document.localeCompare(b.document));
}

/** Whether `--strict` passes: every item covered or waived, and every id a check or waiver names in the inventory. */
export function isComplete(map: CoverageMap): boolean {
  return map.items.every((item) => item.status !== 'uncovered') && map.unknownCovers.length === 0 && map.unknownWaivers.length === 0;
}

/** `1.18–1.25`, `1.18, 1.24–1.25`: consecutive known versions joined into ranges. */
export function versionRanges(versions: ApiVersion[]): string {
  const ranges: ApiVersion[][] = [];
  for (const version of versions) {
    const last = ranges.at(-1);
    const previous = last?.at(-1);
    if (last && previous && API_VERSIONS.indexOf(version) === API_VERSIONS.indexOf(previous) + 1) last.push(version);
    else ranges.push([version]);
  }
  return ranges.map((range) => (range.length === 1 ? range[0] : `${range[0]}–${range.at(-1)}`)).join(', ');
}
