/** Integer query parameters as dockerd reads them, with Go's strconv.Atoi and its wording for a bad one. */
import { InvalidParameterError } from '../model/common/errors.ts';

export function atoi(text: string): number {
  if (!/^[+-]?\d+$/.test(text)) throw new InvalidParameterError(`strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`);
  return Number(text);
}

/** Absent or empty: undefined (the endpoint's default). */
export function optionalInteger(text: string | null): number | undefined {
  return text === null || text === '' ? undefined : atoi(text);
}
