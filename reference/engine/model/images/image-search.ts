/**
 * GET /images/search against the index the reference simulates: a small fixed catalogue standing for
 * Docker Hub (dockerd without network answers 500 `Get "https://index.docker.io/v1/search?q=…&n=25":
 * dial tcp: lookup index.docker.io … no such host`). The index matches the term in names and
 * descriptions and returns at most `limit` results; the engine then applies its filters, as dockerd's
 * SearchRegistryForImages does.
 */
import { InvalidParameterError } from '../common/errors.ts';
import { RegistryUnreachableError } from './image-registry.ts';

export interface SearchResult {
  star_count: number;
  is_official: boolean;
  name: string;
  is_automated: boolean;
  description: string;
}

export interface SearchFilters {
  stars?: string[];
  'is-automated'?: string[];
  'is-official'?: string[];
}

export const DEFAULT_SEARCH_LIMIT = 25;

const entry = (name: string, stars: number, official: boolean, automated: boolean, description: string): SearchResult => ({
  star_count: stars,
  is_official: official,
  name,
  is_automated: automated,
  description,
});

/** most stars first, as the hub ranks them */
const CATALOGUE: readonly SearchResult[] = [
  entry('nginx', 19000, true, false, 'Official build of Nginx.'),
  entry('alpine', 10000, true, false, 'A minimal Docker image based on Alpine Linux with a complete package index and only 5 MB in size!'),
  entry('busybox', 2900, true, false, 'Busybox base image.'),
  entry('progrium/busybox', 70, false, true, ''),
  entry('radial/busyboxplus', 40, false, true, 'Full-chain, Internet enabled, busybox made from scratch. Comes in git and cURL flavors.'),
  entry('yauritux/busybox-curl', 20, false, false, 'Busybox with CURL'),
  entry('shipshape/busybox-tools', 3, false, false, 'Busybox with the tools the Shipshape suites use'),
];

export function searchImages(term: string, limit: number, filters: SearchFilters): SearchResult[] {
  const automated = booleanFilter('is-automated', filters['is-automated']);
  const official = booleanFilter('is-official', filters['is-official']);
  const minimumStars = Math.max(0, ...(filters.stars ?? []).map(starsFilter));
  if (limit < 1 || limit > 100) throw new InvalidParameterError(`Limit ${limit} is outside the range of [1, 100]`);
  const index = indexOf(term);
  if (index !== undefined) throw new RegistryUnreachableError(`https://${index}/v1/_ping`);
  const wanted = term.toLowerCase();
  return CATALOGUE.filter((result) => result.name.includes(wanted) || result.description.toLowerCase().includes(wanted))
    .slice(0, limit)
    .filter((result) => automated === undefined || result.is_automated === automated)
    .filter((result) => official === undefined || result.is_official === official)
    .filter((result) => result.star_count >= minimumStars);
}

/** `true` or `false`, once: anything else is refused with the values as Go prints a slice. */
function booleanFilter(name: string, values: string[] | undefined): boolean | undefined {
  if (values === undefined) return undefined;
  if (values.length === 1 && (values[0] === 'true' || values[0] === 'false')) return values[0] === 'true';
  throw new InvalidParameterError(`Invalid filter '${name}=[${values.join(' ')}]'`);
}

function starsFilter(value: string): number {
  if (!/^[+-]?\d+$/.test(value)) throw new InvalidParameterError(`Invalid filter 'stars=${value}'`);
  return Number(value);
}

/** The index a term names (`registry.test:5000/app`), when it is not the hub's. */
function indexOf(term: string): string | undefined {
  const slash = term.indexOf('/');
  if (slash < 0) return undefined;
  const first = term.slice(0, slash);
  if (!/[.:]/.test(first) && first !== 'localhost') return undefined;
  return first === 'docker.io' || first === 'index.docker.io' ? undefined : first;
}
