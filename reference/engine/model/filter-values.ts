/** A list filter given several values passes what any one of them passes; a filter not given passes everything. */
export function anyValueHolds(values: readonly string[] | undefined, holds: (value: string) => boolean): boolean {
  return values === undefined || values.some(holds);
}
